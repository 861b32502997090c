import Foundation
import IAPFormats
import IAPPipeline
import IAPReports
import IAPTestSupport
import Testing

/// Re-reading, retries and newer versions.
@Suite struct IngestIdempotenceTests {
    let app = AppFixture()

    func subscribed() throws -> String {
        try app.notification(
            type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n-sub", signedDate: Day.at(1),
            transaction: app.transaction(id: "t1", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(1)),
            renewal: app.renewal(original: "t1", signedDate: Day.at(1)))
    }

    func refund() throws -> String {
        try app.notification(
            type: "REFUND", uuid: "n-refund", signedDate: Day.at(5),
            transaction: app.transaction(
                id: "t1", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(5),
                extra: ["revocationDate": .int(Day.at(5)), "revocationReason": 1]))
    }

    @Test func reingestingTheSameFilesChangesNothing() throws {
        let archive = try TestArchive()
        try archive.write("a.jsonl", lines: [try subscribed(), try refund()])
        let first = try IngestRun.ingest(archive)
        let tables = [
            "documents", "notifications", "transaction_versions", "transactions", "renewal_infos", "source_files",
        ]
        let before = try tables.map { try first.count("SELECT count(*) FROM \($0)") }
        let second = try IngestRun.ingest(archive)
        #expect(second.summary.filesAlreadyRead == 1)
        #expect(second.summary.documentsRead == 0)
        #expect(try tables.map { try second.count("SELECT count(*) FROM \($0)") } == before)
    }

    @Test func sameContentUnderAnotherNameIsSkipped() throws {
        let archive = try TestArchive()
        try archive.write("a.jsonl", lines: [try subscribed()])
        try archive.write("copy/a-again.jsonl", lines: [try subscribed()])
        let run = try IngestRun.ingest(archive)
        #expect(run.summary.filesRead == 1)
        #expect(run.summary.filesAlreadyRead == 1)
    }

    /// The reports folder kept inside the archive folder is iaplens's own output: left out of the next run's inputs
    /// and said, not read again file by file and counted as "ignored".
    @Test func theReportsFolderUnderAnInputIsLeftOut() throws {
        let archive = try TestArchive()
        try archive.write("a.jsonl", lines: [try subscribed()])
        let reports = archive.inputs + "/reports"
        let configuration = try archive.configuration { $0.reportsDirectory = reports }
        let first = try Pipeline(configuration: configuration).run()
        #expect(first.ingest.foldersLeftOut.isEmpty && first.reports.written.count > 5)
        let again = try Pipeline(configuration: configuration).run()
        #expect(again.ingest.foldersLeftOut == [reports] && again.ingest.filesIgnored.isEmpty, "\(again.ingest)")
        #expect(again.ingest.filesAlreadyRead == 1)
    }

    @Test func retriedNotificationIsStoredOnce() throws {
        let archive = try TestArchive()
        try archive.write("day1.jsonl", lines: [try subscribed()])
        try archive.write("day2.jsonl", lines: [try subscribed(), try refund()])
        let run = try IngestRun.ingest(archive)
        #expect(try run.count("SELECT count(*) FROM notifications") == 2)
        #expect(try run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted'") == 3)
        #expect(
            try run.count("SELECT count(*) - count(DISTINCT document_id) FROM documents WHERE outcome = 'accepted'")
                == 1)
    }

    @Test(arguments: [false, true])
    func newerVersionOfATransactionUpdatesIt(reversedFiles: Bool) throws {
        let archive = try TestArchive()
        // File names sort the newer version first in one case and last in the other.
        try archive.write(reversedFiles ? "b.jsonl" : "a.jsonl", lines: [try subscribed()])
        try archive.write(reversedFiles ? "a.jsonl" : "b.jsonl", lines: [try refund()])
        let run = try IngestRun.ingest(archive)
        #expect(try run.count("SELECT count(*) FROM transactions") == 1)
        let revoked: Int64? = try run.value("SELECT revocation_date FROM transactions WHERE transaction_id = 't1'")
        #expect(revoked == Day.at(5))
        let versions = try run.count("SELECT version_count FROM transactions WHERE transaction_id = 't1'")
        #expect(versions == 2)
    }

    @Test func refundReversedClearsTheRefundAndALaterRefundRestoresIt() throws {
        let archive = try TestArchive()
        let reversed = try app.notification(
            type: "REFUND_REVERSED", uuid: "n-rev", signedDate: Day.at(9),
            transaction: app.transaction(id: "t1", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(9)))
        try archive.write("a.jsonl", lines: [try subscribed(), try refund(), reversed])
        let run = try IngestRun.ingest(archive)
        let cleared: Int64? = try run.value("SELECT revocation_date FROM transactions WHERE transaction_id = 't1'")
        #expect(cleared == nil)

        let again = try app.notification(
            type: "REFUND", uuid: "n-refund-2", signedDate: Day.at(12),
            transaction: app.transaction(
                id: "t1", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(12),
                extra: ["revocationDate": .int(Day.at(12))]))
        try archive.write("b.jsonl", lines: [again])
        let rerun = try IngestRun.ingest(archive)
        let restored: Int64? = try rerun.value("SELECT revocation_date FROM transactions WHERE transaction_id = 't1'")
        #expect(restored == Day.at(12))
    }
}
