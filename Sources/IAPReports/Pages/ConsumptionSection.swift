import IAPAnalytics
import IAPStore

/// The **Consumption requests** part of the trust-and-safety section: how many refund requests Apple asked about,
/// how many iaplens answered in time (and with `DECLINE`), and what Apple decided afterwards, so the team sees
/// whether its answers changed Apple's decisions. The rows are in `consumption_requests.csv`.
enum ConsumptionSection {
    static func render(month: MonthReport, accountLink: @escaping (String) -> String?) -> [Block] {
        let rows = month.rows("consumption_requests.csv")
        var blocks: [Block] = [.heading(level: 3, "Consumption requests", anchor: "consumption-requests")]
        guard !rows.isEmpty else {
            blocks.append(.aside("No consumption request in this month."))
            return blocks
        }
        func count(_ answer: String) -> Int { rows.filter { $0.text("answer") == answer }.count }
        func count(_ result: ConsumptionAnswerResult) -> Int { count(result.rawValue) }
        func count(_ outcome: ConsumptionRequestOutcome) -> Int { count(outcome.rawValue) }
        let sent = rows.filter { answer in
            ConsumptionAnswerResult.sent.contains { $0.rawValue == answer.text("answer") }
        }
        let answered = count(.answered)
        let declines = sent.filter { $0.text("refund_preference") == "DECLINE" }.count
        let refunded = sent.filter { $0.text("decision") == "refunded" }.count
        let declined = sent.filter { $0.text("decision") == "declined" }.count
        let open = sent.count - refunded - declined
        let skippedFacts = count(.skippedNoFacts)
        let skippedConsent = count(.skippedNoConsent)
        blocks.append(
            .paragraph(
                "\(strong: "\(rows.count)") request(s) from Apple (a customer asked for a refund): "
                    + "\(strong: "\(answered) answered in time") (\(declines) asking Apple to decline: the account met a "
                    + "flag rule), \(count(.refused)) refused by Apple, \(count(.missed)) missed (no answer within "
                    + "\(BusinessRules.consumptionAnswerWindowHours) hours), \(skippedFacts + skippedConsent) skipped (\(skippedFacts) without the app's facts, "
                    + "\(skippedConsent) without the customer's consent), \(count(.decidedBeforeAnswer)) decided by "
                    + "Apple before an answer, \(count(.pending)) pending"
                    + (count(.answeredLate) > 0
                        ? ", \(count(.answeredLate)) answered after the \(BusinessRules.consumptionAnswerWindowHours) hours"
                        : "")
                    + (count(.unverified) > 0 ? ", \(count(.unverified)) unverified copies never answered" : "") + "."))
        blocks.append(
            .paragraph(
                "Of the answered: \(strong: "\(refunded) refunded"), \(strong: "\(declined) declined"), \(open) still "
                    + "open. Every request is in "
                    + "\(link: .data("consumption_requests.csv"), to: "consumption_requests.csv")."))
        let reasons = Dictionary(grouping: rows, by: { $0.text("consumption_request_reason") }).mapValues(\.count)
        let byReason = reasons.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { reason, count -> Text in
            "\(count) " + .data(Vocabulary.consumptionRequestReason(reason))
        }
        blocks.append(
            .paragraph("By the customer's own stated reason: " + Text.joined(byReason, separator: ", ") + "."))
        blocks.append(
            TableView(
                file: "consumption_requests.csv",
                columns: [
                    .init("requested_at", "Requested (UTC)"),
                    .init("transaction_id", "Transaction"),
                    .init("account_id", "Account", .link(accountLink)),
                    .init("rules", "Rules met", .words { $0.split(separator: ";").joined(separator: ", ") }),
                    .init("answer", "Answer", .words(Vocabulary.consumptionAnswer)),
                    .init("refund_preference", "Preference"),
                    .init("answered_at", "Answered (UTC)"),
                    .init("decision", "Apple's decision"),
                ]
            ).render(month, emptyText: "No consumption request in this month."))
        let refused = rows.filter { $0.text("answer") == ConsumptionAnswerResult.refused.rawValue }
        if !refused.isEmpty {
            blocks.append(
                .paragraph(
                    "What Apple said when it refused an answer (fix the facts row, then check the request in App Store Connect):"
                ))
            blocks.append(
                .list(
                    refused.map { row in
                        "Transaction " + .data(row.text("transaction_id")) + ": HTTP " + .data(row.text("apple_status"))
                            + (row.text("apple_error_code").isEmpty
                                ? Text() : ", errorCode " + .data(row.text("apple_error_code")))
                            + (row.text("apple_error_message").isEmpty
                                ? Text() : ", " + .data(row.text("apple_error_message")))
                    }))
        }
        return blocks
    }
}
