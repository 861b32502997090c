public import IAPFormats
public import IAPTestSigning

/// Builds signed App Store documents for one test app, the way Apple shapes them: V2 notification
/// bodies with nested signed transaction/renewal info, refund-history pages, order lookups, V1 bodies.
public struct AppFixture: Sendable {
    public var bundleId = "com.example.tests"
    public var appAppleId: Int64 = 1_234_567_890
    public var environment = "Production"
    public var signer: JWSSigner = TestChains.signer

    public init() {}

    // MARK: - Payloads

    /// A transaction payload with Apple's fields; `extra` overrides or adds fields (nil removes).
    public func transaction(
        id: String, original: String? = nil, product: String = "com.example.monthly",
        type: String = "Auto-Renewable Subscription", purchase: Int64, expires: Int64? = nil, price: Int64 = 9_990,
        currency: String = "USD", signedDate: Int64, extra: [String: JSONValue?] = [:]
    ) -> JSONValue {
        var value: JSONValue = [
            "transactionId": .string(id), "originalTransactionId": .string(original ?? id),
            "bundleId": .string(bundleId),
            "productId": .string(product), "type": .string(type), "purchaseDate": .int(purchase),
            "originalPurchaseDate": .int(purchase), "quantity": 1, "inAppOwnershipType": "PURCHASED",
            "signedDate": .int(signedDate), "environment": .string(environment), "price": .int(price),
            "currency": .string(currency), "storefront": "USA", "transactionReason": "PURCHASE",
        ]
        if let expires { value = value.setting("expiresDate", .int(expires)) }
        for (key, field) in extra { value = value.setting(key, field ?? nil) }
        return value
    }

    /// A renewal-info payload.
    public func renewal(
        original: String, product: String = "com.example.monthly", signedDate: Int64, extra: [String: JSONValue?] = [:]
    ) -> JSONValue {
        var value: JSONValue = [
            "originalTransactionId": .string(original), "productId": .string(product),
            "autoRenewProductId": .string(product), "autoRenewStatus": 1, "signedDate": .int(signedDate),
            "environment": .string(environment),
        ]
        for (key, field) in extra { value = value.setting(key, field ?? nil) }
        return value
    }

    // MARK: - Signed documents

    /// Signs a payload with the fixture's signer (or another).
    public func sign(_ payload: JSONValue, with other: JWSSigner? = nil) throws -> String {
        try (other ?? signer).sign(payload: payload.canonicalJSON())
    }

    /// The decoded notification payload (before signing), for tests that tamper with it.
    public func notificationPayload(
        type: String, subtype: String? = nil, uuid: String, signedDate: Int64, transaction: JSONValue? = nil,
        renewal: JSONValue? = nil, data extra: [String: JSONValue?] = [:]
    ) throws -> JSONValue {
        var data: JSONValue = [
            "bundleId": .string(bundleId), "environment": .string(environment), "bundleVersion": "1.0",
        ]
        if environment == "Production" { data = data.setting("appAppleId", .int(appAppleId)) }
        if let transaction { data = data.setting("signedTransactionInfo", .string(try sign(transaction))) }
        if let renewal { data = data.setting("signedRenewalInfo", .string(try sign(renewal))) }
        for (key, field) in extra { data = data.setting(key, field ?? nil) }
        var payload: JSONValue = [
            "notificationType": .string(type), "notificationUUID": .string(uuid), "version": "2.0",
            "signedDate": .int(signedDate), "data": data,
        ]
        if let subtype { payload = payload.setting("subtype", .string(subtype)) }
        return payload
    }

    /// A V2 notification body line: `{"signedPayload":"<JWS>"}`.
    public func notification(
        type: String, subtype: String? = nil, uuid: String, signedDate: Int64, transaction: JSONValue? = nil,
        renewal: JSONValue? = nil, data extra: [String: JSONValue?] = [:]
    ) throws -> String {
        let payload = try notificationPayload(
            type: type, subtype: subtype, uuid: uuid, signedDate: signedDate, transaction: transaction,
            renewal: renewal, data: extra)
        return Self.body(try sign(payload))
    }

    /// One `SUBSCRIBED` notification of a first purchase (2025-10-09): the smallest archive a command runs on.
    public func firstPurchase() throws -> String {
        try notification(
            type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedDate: 1_760_000_000_000,
            transaction: transaction(
                id: "t1", purchase: 1_760_000_000_000, expires: 1_762_592_000_000, signedDate: 1_760_000_000_000))
    }

    /// Wraps a JWS as a webhook body.
    public static func body(_ jws: String) -> String {
        JSONValue.object(JSONObject([("signedPayload", .string(jws))])).text
    }

    /// A Get Refund History page.
    public func refundPage(_ transactions: [JSONValue], hasMore: Bool = false) throws -> String {
        let signed = try transactions.map { JSONValue.string(try sign($0)) }
        return JSONValue.object(
            JSONObject([
                ("signedTransactions", .array(signed)), ("revision", "rev"), ("hasMore", .bool(hasMore)),
            ])
        ).text
    }

    /// A Look Up Order ID result.
    public func orderLookup(orderId: String?, status: Int64 = 0, _ transactions: [JSONValue]) throws -> String {
        var pairs: [(String, JSONValue)] = [
            ("status", .int(status)), ("signedTransactions", .array(try transactions.map { .string(try sign($0)) })),
        ]
        if let orderId { pairs.append(("orderId", .string(orderId))) }
        return JSONValue.object(JSONObject(pairs)).text
    }

    /// An envelope around any document line.
    public static func envelope(receivedAt: JSONValue, body: String) throws -> String {
        let parsed = try JSONParser.parse(Array(body.utf8))
        return JSONValue.object(JSONObject([("receivedAt", receivedAt), ("body", parsed)])).text
    }
}
