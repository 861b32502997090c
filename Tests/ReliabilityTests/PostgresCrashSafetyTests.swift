import Foundation
import IAPStore
import IAPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Nothing lost, nothing doubled on PostgreSQL either: `iaplens run` against a PostgreSQL store killed
/// with SIGKILL at seeded random instants, then a run that completes, gives the reports and the row counts of an
/// uninterrupted run on SQLite; the server releases each killed run's advisory lock (no rerun exits 75).
@Suite(.serialized) struct PostgresCrashSafetyTests {
    static let kills = 6

    @Test func killedPostgresRunsThenARerunGiveTheReportsOfAnUninterruptedRun() throws {
        let archive = try SimulatedArchive(months: 8)
        let reference = try archive.outputs("reference")
        let uninterrupted = try CLI.run(archive.runArguments(database: reference.database, reports: reference.reports))
        try #require(uninterrupted.status == 0, "reference run failed: \(uninterrupted.stderr)")

        let database = try TestPostgres.freshStore()
        let reports = archive.root + "/out-postgres/reports"
        // The length of an uninterrupted PostgreSQL run: the window the kills are drawn from.
        let timing = try archive.outputs("timing")
        let timed = try CLI.run(
            archive.runArguments(database: try TestPostgres.freshStore("timing"), reports: timing.reports))
        try #require(timed.status == 0, "timing run failed: \(timed.stderr)")
        var random = SeededRandom(seed: 0x9e5)
        let interrupted = try CLI.killRepeatedly(
            archive.runArguments(database: database, reports: reports), kills: Self.kills,
            window: max(timed.seconds, 0.3), random: &random,
            expectSuccess: { result, attempt in #expect(result.status == 0, "\(attempt): \(result.stderr)") })
        #expect(interrupted >= Self.kills * 3 / 4, "only \(interrupted) kills interrupted a run")
        let rerun = try CLI.run(archive.runArguments(database: database, reports: reports))
        #expect(rerun.status == 0, "the rerun after kills failed (a stale lock gives 75): \(rerun.stderr)")
        let difference = Tree.difference(Tree.files(reference.reports), Tree.files(reports))
        #expect(difference.isEmpty, "\(difference)")
        #expect(
            try CrashSafetyTests.rowCounts(database) == (try CrashSafetyTests.rowCounts(reference.database)),
            "rows lost or doubled")
    }
}
