import IAPAnalytics

/// The **Consumption requests** part of the trust-and-safety section: how many refund requests Apple asked about,
/// how many iaplens answered in time (and with `DECLINE`), and what Apple decided afterwards, so the team sees
/// whether its answers changed Apple's decisions. The rows are in `consumption_requests.csv`.
enum ConsumptionSection {
    static func render(month: MonthReport) -> String {
        let rows = month.rows("consumption_requests.csv")
        var blocks = ["### Consumption requests"]
        guard !rows.isEmpty else {
            blocks.append("_No consumption request in this month._")
            return blocks.joined(separator: "\n\n")
        }
        func count(_ answer: String) -> Int { rows.filter { $0.text("answer") == answer }.count }
        let sent = rows.filter { ["answered", "refused"].contains($0.text("answer")) }
        let answered = count("answered")
        let declines = sent.filter { $0.text("refund_preference") == "DECLINE" }.count
        let refunded = sent.filter { $0.text("decision") == "refunded" }.count
        let declined = sent.filter { $0.text("decision") == "declined" }.count
        let open = sent.count - refunded - declined
        blocks.append(
            "**\(rows.count)** request(s) from Apple (a customer asked for a refund): **\(answered) answered in time** "
                + "(\(declines) asking Apple to decline: the account met a flag rule), \(count("refused")) refused by Apple, "
                + "\(count("missed")) missed (no answer within 12 hours), "
                + "\(count("skipped_no_facts") + count("skipped_no_consent")) skipped (\(count("skipped_no_facts")) without the app's facts, "
                + "\(count("skipped_no_consent")) without the customer's consent), "
                + "\(count("decided_before_answer")) decided by Apple before an answer, \(count("pending")) pending.")
        blocks.append(
            "Of the answered: **\(refunded) refunded**, **\(declined) declined**, \(open) still open. Every request is in "
                + "[consumption\\_requests.csv](consumption_requests.csv).")
        return blocks.joined(separator: "\n\n")
    }
}
