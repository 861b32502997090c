import Foundation
import GRDB
import IAPPipeline
import IAPStore
import IAPTestSupport
import IAPVerification

/// Runs the real ingest stage on a test archive and answers questions about the store.
struct IngestRun {
    let archive: TestArchive
    let store: SQLiteStore
    let summary: IngestSummary

    static func ingest(
        _ archive: TestArchive, fixture: AppFixture = AppFixture(), environment: String = "Production",
        verify: Bool = true,
        v1SharedSecret: String? = nil, batchRows: Int? = nil, chunkSize: Int? = nil
    ) throws -> IngestRun {
        let store = try SQLiteStore(path: archive.database)
        let policy = IngestPolicy(
            bundleId: fixture.bundleId, appAppleId: fixture.appAppleId, environment: environment,
            verifySignatures: verify, v1SharedSecret: v1SharedSecret)
        let roots = try TrustedRoot.load(fromFile: try archive.trustedRoot())
        let runId = try RunLog(store: store).begin(command: "ingest", isVerified: verify)
        var options = IngestStage.Options(inputs: [archive.inputs], policy: policy, roots: roots)
        if let batchRows { options.batchRows = batchRows }
        if let chunkSize { options.chunkSize = chunkSize }
        let summary = try IngestStage(store: store, options: options).run(runId: runId)
        return IngestRun(archive: archive, store: store, summary: summary)
    }

    func strings(_ sql: String) throws -> [String] {
        try store.database.read { db in try String.fetchAll(db, sql: sql) }
    }

    func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try store.database.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    func reasons() throws -> [String] {
        try strings("SELECT reason FROM quarantine ORDER BY file_sha256, line, entry")
    }

    func value<T: DatabaseValueConvertible>(_ sql: String, _ arguments: StatementArguments = []) throws -> T? {
        try store.database.read { db in try T.fetchOne(db, sql: sql, arguments: arguments) }
    }
}

/// Fixed times (Unix ms) used across tests.
enum Day {
    static let base: Int64 = 1_696_118_400_000  // 2023-10-01T00:00:00Z
    static func at(_ day: Int, hours: Int64 = 12) -> Int64 { base + Int64(day) * 86_400_000 + hours * 3_600_000 }
}
