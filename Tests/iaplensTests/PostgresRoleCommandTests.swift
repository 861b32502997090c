import Foundation
import IAPStore
import IAPTestSupport
import Testing

/// A team whose database administrator made the store with one role and runs iaplens with another that may read and
/// write every table but owns none: `ingest` and `status` work, and `analyze` (and `report` of a store changed since),
/// which rebuild the models' tables, say which statement lets them (exit 77, a permission), not "rerun". Before,
/// `ingest` failed too: it asked to create every index, which PostgreSQL refuses a non-owner even when it exists.
@Suite struct PostgresRoleCommandTests {
    @Test func aRoleThatWritesButOwnsNoTableIsToldHowAnalyzeMayRebuild() throws {
        let archive = try TestArchive()
        let app = AppFixture()
        try archive.write(
            "n.jsonl",
            lines: [
                try app.notification(
                    type: "SUBSCRIBED", uuid: "n-1", signedDate: 1_735_732_800_000,
                    transaction: app.transaction(
                        id: "t1", purchase: 1_735_732_800_000, expires: 1_738_411_200_000,
                        signedDate: 1_735_732_800_000))
            ])
        let owner = try TestPostgres.freshStore()
        let schema = String(owner.split(separator: "=").last ?? "")
        let common = ["--bundle-id", app.bundleId, "--root-certificate", try archive.trustedRoot()]
        let first = try CLITests.run(
            ["run", "--input", archive.inputs, "--database", owner, "--reports", archive.reports] + common)
        #expect(first.status == 0, "\(first.stderr)")
        let store = try StoreLocation(owner).open()
        let writer = try TestPostgres.role(
            "writer", schema: schema, run: { sql in try store.write { try $0.executeScript(sql) } },
            grants: { role in
                "GRANT USAGE, CREATE ON SCHEMA \(schema) TO \(role);"
                    + " GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(schema) TO \(role);"
                    + " GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA \(schema) TO \(role);"
            })
        try archive.write(
            "more.jsonl",
            lines: [try app.notification(type: "DID_RENEW", uuid: "n-2", signedDate: 1_738_411_200_000)])
        let ingest = try CLITests.run(["ingest", "--input", archive.inputs, "--database", writer] + common)
        #expect(ingest.status == 0, "a role with the table grants ingests: \(ingest.stderr)")
        let analyze = try CLITests.run(["analyze", "--database", writer])
        #expect(analyze.status == 77, "\(analyze.stderr)")
        #expect(analyze.stderr.contains("OWNER TO <this role>"), "\(analyze.stderr)")
        #expect(!analyze.stderr.contains("Rerun;"), "\(analyze.stderr)")
        // `report` of a store changed since its last analyze rebuilds the models first: the same grant, said the same.
        let report = try CLITests.run(["report", "--database", writer, "--reports", archive.root + "/writer-reports"])
        #expect(report.status == 77 && report.stderr.contains("OWNER TO <this role>"), "\(report.stderr)")
        let status = try CLITests.run(["status", "--database", writer])
        #expect(status.status == 0, "\(status.stderr)")
        // Every line of standard error is iaplens's own (a timestamp, a level): no server warning printed raw.
        for line in analyze.stderr.split(separator: "\n") {
            #expect(line.contains(" error: ") || line.contains(" warning: "), "not iaplens's: \(line)")
        }
    }
}
