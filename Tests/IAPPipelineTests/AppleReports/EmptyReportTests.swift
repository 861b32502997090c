import Foundation
import IAPTestSupport
import Testing

/// A Financial Report with its header and nothing else covers no day: it is refused whole, saying so, and marks no
/// day as covered.
@Suite struct EmptyReportTests {
    @Test func aHeaderWithoutRowsOrPeriodIsRefused() throws {
        let archive = try TestArchive()
        let header = [
            "Transaction Date", "Settlement Date", "SKU", "Product Type Identifier", "Country of Sale", "Quantity",
            "Partner Share", "Extended Partner Share", "Partner Share Currency", "Customer Price", "Customer Currency",
            "Sale or Return",
        ].joined(separator: "\t")
        try archive.write("apple/FINANCE_DETAIL_Z1.txt", bytes: Array((header + "\n").utf8))
        let run = try IngestRun.ingest(archive)
        #expect(try run.reasons() == ["bad_report"])
        let message = try #require(try run.strings("SELECT message FROM quarantine").first)
        #expect(message.contains("holds no rows and names no period"), "\(message)")
        #expect(try run.count("SELECT count(*) FROM apple_report_days") == 0)
        #expect(try run.count("SELECT count(*) FROM apple_reports") == 0)
    }
}
