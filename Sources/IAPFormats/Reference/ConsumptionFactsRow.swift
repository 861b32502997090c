/// One row of the app's consumption facts (`--facts` of `iaplens consumption`, Documentation/Pipeline.md "Answering consumption
/// requests"): what the app knows about a transaction a customer asked Apple to refund.
public struct ConsumptionFactsRow: Sendable, Equatable {
    public let line: Int
    public let transactionId: String
    public let customerConsented: Bool
    /// One of ``deliveryStatuses``.
    public let deliveryStatus: String
    /// Milli-percent, 0–100000; nil when the app does not know.
    public let consumptionPercentage: Int64?
    public let sampleContentProvided: Bool

    /// Apple's delivery statuses (Send Consumption Information, V2).
    public static let deliveryStatuses = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
        "UNDELIVERED_OTHER",
    ]

    public init(
        line: Int, transactionId: String, customerConsented: Bool, deliveryStatus: String,
        consumptionPercentage: Int64?,
        sampleContentProvided: Bool
    ) {
        self.line = line
        self.transactionId = transactionId
        self.customerConsented = customerConsented
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.sampleContentProvided = sampleContentProvided
    }
}

extension ReferenceFiles {
    /// Reads the facts CSV: `transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided`.
    /// Booleans are `true`/`false` (any case); `consumption_percentage` an integer 0–100000 or empty. A transaction
    /// listed twice keeps its last row (a later line corrects an earlier one).
    /// - Throws: ``ReferenceFileError`` listing every bad row.
    public static func readConsumptionFacts(at path: String) throws(ReferenceFileError) -> [ConsumptionFactsRow] {
        let table = try CSVTable.read(path: path)
        let columns = try resolveColumns(
            [
                "transaction_id", "customer_consented", "delivery_status", "consumption_percentage",
                "sample_content_provided",
            ],
            table: table, file: path)
        var rows: [ConsumptionFactsRow] = []
        var problems: [ReferenceFileError.Problem] = []
        func flag(_ text: String) -> Bool? {
            switch text.lowercased() {
            case "true": true
            case "false": false
            default: nil
            }
        }
        for record in table.records.dropFirst() where !isBlank(record) {
            let values = columns.map { value(record, $0) }
            var rowProblems: [String] = []
            if values[0].isEmpty { rowProblems.append("transaction_id is empty") }
            let consented = flag(values[1])
            if consented == nil { rowProblems.append("customer_consented \"\(values[1])\" is not true or false") }
            if !ConsumptionFactsRow.deliveryStatuses.contains(values[2]) {
                rowProblems.append(
                    "delivery_status \"\(values[2])\" is not one of \(ConsumptionFactsRow.deliveryStatuses.joined(separator: ", "))"
                )
            }
            var percentage: Int64?
            if !values[3].isEmpty {
                if let number = Int64(values[3]), (0...100_000).contains(number) {
                    percentage = number
                } else {
                    rowProblems.append(
                        "consumption_percentage \"\(values[3])\" is not a whole number of milli-percent from 0 to 100000"
                    )
                }
            }
            let sample = flag(values[4])
            if sample == nil { rowProblems.append("sample_content_provided \"\(values[4])\" is not true or false") }
            if rowProblems.isEmpty, let consented, let sample {
                rows.append(
                    ConsumptionFactsRow(
                        line: record.line, transactionId: values[0], customerConsented: consented,
                        deliveryStatus: values[2],
                        consumptionPercentage: percentage, sampleContentProvided: sample))
            } else {
                problems.append(.init(line: record.line, message: sentence(rowProblems)))
            }
        }
        guard problems.isEmpty else { throw ReferenceFileError(file: path, problems: problems) }
        return rows
    }
}
