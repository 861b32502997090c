import Foundation
import IAPTestSupport
import Testing

/// The `iaplens` executable allocates through jemalloc (the CJemallocSettings target), the allocator its performance
/// and memory figures were measured with (Documentation/Performance.md "jemalloc as the allocator"). A build that silently fell back
/// to glibc's malloc would still pass every other test, only slower; this one fails.
@Suite struct AllocatorTests {
    @Test func theExecutableRunsOnJemalloc() throws {
        // Only jemalloc reads MALLOC_CONF; with stats_print it reports its statistics on stderr at exit.
        let result = try CLI.run(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("Begin jemalloc statistics"),
            "iaplens did not run on jemalloc: \(result.stderr.prefix(300))")
        // CJemallocSettings' malloc_conf reached it: freed pages go back after a second, not ten (report's peak).
        #expect(result.stderr.contains("opt.dirty_decay_ms: 1000"))
    }

    @Test func ingestHandsFreedMemoryBackThroughJemalloc() throws {
        // MemoryRelease purges jemalloc's arenas after every write and around each index build of a bulk load. With
        // time-based purging off (dirty_decay_ms:-1), jemalloc sweeps its dirty pages only when asked or when it
        // must: 0-1 sweeps for `--version`, 4 for this ingest when nothing asked (measured with glibc's malloc_trim
        // in place of the purge), 19-21 with the purges.
        let settings = ["MALLOC_CONF": "stats_print:true,dirty_decay_ms:-1"]
        let idle = try #require(Self.dirtyPurgeSweeps(try CLI.run(["--version"], environment: settings).stderr))

        let archive = try TestArchive()
        let sample = CLITests.repository.appendingPathComponent("data/sample/archive").path
        let result = try CLI.run(
            [
                "ingest", "--quiet", "--input", sample + "/notifications", "--database", archive.root + "/store.sqlite",
                "--bundle-id", "com.example.iaplens.demo", "--app-apple-id", "1234567890",
                "--root-certificate", sample + "/certs/root.pem",
            ], environment: settings)
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        let sweeps = try #require(Self.dirtyPurgeSweeps(result.stderr))
        #expect(sweeps >= idle + 10, "\(sweeps) purge sweeps during the ingest: MemoryRelease did not reach jemalloc")
    }

    /// The "sweeps" column of the first dirty-page line in jemalloc's statistics:
    /// `decaying:  time  npages  sweeps  madvises  purged`, then `   dirty:   N/A  3979  21  127  2756`. The first is
    /// the merged arenas' when several arenas were used, else the only arena's.
    static func dirtyPurgeSweeps(_ statistics: String) -> Int? {
        let lines = statistics.split(separator: "\n")
        guard let header = lines.firstIndex(where: { $0.hasPrefix("decaying:") }), header + 1 < lines.count else {
            return nil
        }
        let fields = lines[header + 1].split(separator: " ")
        guard fields.first == "dirty:", fields.count > 3 else { return nil }
        return Int(fields[3])
    }
}
