#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The single writer: appends chunk outputs in chunk order to the archive's files and pages lookups.
///
/// Month files stay open for the whole run (at most one per month and kind), so memory stays flat
/// however many customers are simulated.
final class ArchiveWriter {
    static let pageSize = 20

    private let directory: String
    private let world: SimWorld
    private var v1Files: [Int: OutputFile] = [:]
    private var v2Files: [Int: OutputFile] = [:]
    private var orders: OutputFile?
    private let accounts: OutputFile
    private var pendingHistory: [ChunkOutput.Line] = []
    private var pendingRefunds: [ChunkOutput.Line] = []
    private var historyPages = 0
    private var refundPages = 0
    private var finance = FinanceReportWriter()
    private(set) var tally = Tally()
    private(set) var flagged: [Int: [String]] = [:]
    /// `reviews.csv` rows from the timelines, in the order the entities were simulated.
    private(set) var reviewRows: [String] = []
    private(set) var asOf: Int64 = 0
    private(set) var firstPurchase: Int64 = .max
    private(set) var entitiesDone = 0

    init(directory: String, world: SimWorld) throws(SimulationIOError) {
        self.directory = directory
        self.world = world
        for sub in [
            "notifications", "notifications/v1", "notifications/v2", "history", "refunds", "orders", "certs", "finance",
        ] {
            try Self.makeDirectory(directory + "/" + sub)
        }
        accounts = try OutputFile(path: directory + "/accounts.csv", gzip: false)
        try accounts.writeLine("app_account_token,account_id")
        try Self.writeText(world.catalog.productsCSV, to: directory + "/products.csv")
        tally.add("files", "products_csv")
        tally.add("files", "accounts_csv")
    }

    /// Appends one chunk's output.
    func append(_ chunk: ChunkOutput) throws(SimulationIOError) {
        for month in chunk.v1Lines.keys.sorted() {
            let file = try monthFile(month, v2: false)
            for line in chunk.v1Lines[month] ?? [] { try file.writeLine(line.text) }
        }
        for month in chunk.v2Lines.keys.sorted() {
            let file = try monthFile(month, v2: true)
            for line in chunk.v2Lines[month] ?? [] { try file.writeLine(line.text) }
        }
        if !chunk.orderLines.isEmpty {
            if orders == nil {
                orders = try OutputFile(path: directory + "/orders/order-lookups.jsonl", gzip: false)
                tally.add("files", "order_lookups")
            }
            for line in chunk.orderLines { try orders?.writeLine(line) }
        }
        for row in chunk.accountRows { try accounts.writeLine(row) }
        finance.add(chunk.appleEntries)
        tally.add("accounts", "rows", chunk.accountRows.count)
        pendingHistory += chunk.historyItems
        pendingRefunds += chunk.refundEntries
        // Keep one page back: only the last page of a lookup says hasMore false.
        while pendingHistory.count > Self.pageSize { try flushHistoryPage(hasMore: true) }
        while pendingRefunds.count > Self.pageSize { try flushRefundPage(hasMore: true) }
        tally.merge(chunk.tally)
        for (month, accounts) in chunk.flagged { flagged[month, default: []] += accounts }
        reviewRows += chunk.reviewRows
        asOf = max(asOf, chunk.asOf)
        firstPurchase = min(firstPurchase, chunk.firstPurchase)
        entitiesDone += chunk.entities
    }

    /// Writes the last pages and closes every file.
    func finish() throws(SimulationIOError) {
        if !pendingHistory.isEmpty { try flushHistoryPage(hasMore: false) }
        if !pendingRefunds.isEmpty { try flushRefundPage(hasMore: false) }
        for month in v1Files.keys.sorted() { try v1Files[month]?.close() }
        for month in v2Files.keys.sorted() { try v2Files[month]?.close() }
        try orders?.close()
        try accounts.close()
        let reports = try finance.write(to: directory + "/finance", asOf: asOf, vendorName: "iaplens Simulated Apps")
        tally.add("files", "finance_reports", reports)
    }

    /// Documents written so far.
    var documentsWritten: Int { tally.category("documents").values.reduce(0, +) }

    private func monthFile(_ month: Int, v2: Bool) throws(SimulationIOError) -> OutputFile {
        if let file = v2 ? v2Files[month] : v1Files[month] { return file }
        let name = SimTime.monthText(month)
        let file =
            v2
            ? try OutputFile(path: directory + "/notifications/v2/" + name + ".jsonl.gz", gzip: true)
            : try OutputFile(path: directory + "/notifications/v1/" + name + ".jsonl", gzip: false)
        if v2 { v2Files[month] = file } else { v1Files[month] = file }
        tally.add("files", v2 ? "v2_notifications_gz" : "v1_notifications")
        return file
    }

    private func flushHistoryPage(hasMore: Bool) throws(SimulationIOError) {
        let items = Array(pendingHistory.prefix(Self.pageSize))
        pendingHistory.removeFirst(items.count)
        historyPages += 1
        let token = token(stream: 11, page: historyPages)
        var text = "{\"notificationHistory\":[" + items.map(\.text).joined(separator: ",") + "],"
        text += "\"hasMore\":" + (hasMore ? "true" : "false") + ",\"paginationToken\":\"" + token + "\"}\n"
        try Self.writeText(
            text, to: directory + "/history/notification-history-" + SimTime.pad(historyPages, 3) + ".json")
        tally.add("files", "notification_history_pages")
        tally.add("documents", "notification_history_page")
        tally.add("documents", "notification_history_item", items.count)
    }

    private func flushRefundPage(hasMore: Bool) throws(SimulationIOError) {
        // Apple returns a page in ascending revocationDate order.
        let items = Array(pendingRefunds.prefix(Self.pageSize)).sorted { ($0.time, $0.text) < ($1.time, $1.text) }
        pendingRefunds.removeFirst(items.count)
        refundPages += 1
        var text = "{\"signedTransactions\":[" + items.map { "\"" + $0.text + "\"" }.joined(separator: ",") + "],"
        text +=
            "\"revision\":\"" + token(stream: 12, page: refundPages) + "\",\"hasMore\":" + (hasMore ? "true" : "false")
            + "}\n"
        try Self.writeText(text, to: directory + "/refunds/refund-history-" + SimTime.pad(refundPages, 3) + ".json")
        tally.add("files", "refund_history_pages")
        tally.add("documents", "refund_history_page")
    }

    private func token(stream: UInt64, page: Int) -> String {
        var r = SimRandom(world.seed, stream, UInt64(page))
        return String(r.next(), radix: 16) + String(r.next(), radix: 16)
    }

    static func makeDirectory(_ path: String) throws(SimulationIOError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw SimulationIOError(path: path, detail: String(cString: strerror(errno)))
        }
    }

    static func writeText(_ text: String, to path: String) throws(SimulationIOError) {
        let file = try OutputFile(path: path, gzip: false)
        try file.write(Array(text.utf8))
        try file.close()
    }
}
