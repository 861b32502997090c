import IAPFormats

/// The body of Send Consumption Information for one request (Documentation/Pipeline.md "Answering consumption requests"): the
/// app's facts, and `refundPreference` `DECLINE` when the account met a flag rule at the request's time.
public enum ConsumptionBody {
    /// Canonical JSON (keys sorted): the same request and facts always give the same bytes.
    public static func make(for request: ConsumptionRequest, facts: ConsumptionFactsRow) -> [UInt8] {
        var pairs: [(String, JSONValue)] = [
            ("customerConsented", .bool(facts.customerConsented)),
            ("deliveryStatus", .string(facts.deliveryStatus)),
            ("sampleContentProvided", .bool(facts.sampleContentProvided)),
        ]
        // Apple asks to leave the percentage out for auto-renewable subscriptions.
        if let percentage = facts.consumptionPercentage, request.productType != ProductType.autoRenewable.reportName {
            pairs.append(("consumptionPercentage", .number(JSONNumber(percentage))))
        }
        if !request.rules.isEmpty { pairs.append(("refundPreference", .string("DECLINE"))) }
        return JSONValue.object(JSONObject(pairs)).canonicalJSON()
    }
}
