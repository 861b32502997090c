import Foundation
import GRDB
import IAPFormats
import IAPStore
import IAPTestSupport
import Testing

/// Memory stays bounded whatever the input holds: lines of 30 MB (over the 16 MiB limit), documents just
/// under the limit, and thousands of one-megabyte lines are read by `iaplens ingest` in a child process whose peak
/// resident memory (the kernel's VmHWM, read while it runs) stays under 200 MB, and every line is quarantined with
/// its reason and a bounded excerpt.
@Suite struct MemoryBoundTests {
    static let bound = 200 * 1024  // KB

    @Test func oversizedAndNearLimitDocumentsKeepIngestUnder200MB() throws {
        let folder = NSTemporaryDirectory() + "iaplens-memory-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Twelve lines of 30 MB, one gzip member each (the file is small; its content is not).
        try writeMembers(folder + "/in/oversized.jsonl.gz", count: 12) {
            Array("{\"x\":\"".utf8) + repeatElement(UInt8(ascii: "A"), count: 30 << 20) + Array("\"}\n".utf8)
        }
        // Six documents just under the 16 MiB limit: parsed, not cut.
        try writeMembers(folder + "/in/near-limit.jsonl.gz", count: 6) {
            Array("{\"x\":\"".utf8) + repeatElement(UInt8(ascii: "A"), count: (16 << 20) - 20) + Array("\"}\n".utf8)
        }
        // Three hundred lines of a megabyte each, plain.
        let megabyte =
            Array("{\"signedPayload\":\"".utf8) + repeatElement(UInt8(ascii: "A"), count: 1 << 20) + Array("\"}\n".utf8)
        let handle = try FileHandle(
            forWritingTo: URL(
                fileURLWithPath: {
                    _ = FileManager.default.createFile(atPath: folder + "/in/megabytes.jsonl", contents: nil);
                    return folder + "/in/megabytes.jsonl"
                }()))
        for _ in 0..<300 { try handle.write(contentsOf: Data(megabyte)) }
        try handle.close()

        let database = folder + "/store.sqlite"
        let running = try CLI.Running([
            "ingest", "--input", folder + "/in", "--database", database, "--bundle-id", "com.example.memory",
            "--max-quarantine-percent", "100",
        ])
        let (result, peak) = try Self.waitMeasuringPeak(running)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(peak > 0, "the child's memory was read")
        #expect(peak < Self.bound, "peak resident memory \(peak / 1024) MB, over the 200 MB bound")

        let store = try SQLiteStore(path: database)
        let rows = try store.database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT reason, count(*), max(length(excerpt)), max(length(message)) FROM quarantine GROUP BY reason ORDER BY reason"
            )
        }
        let counts = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as Int) })
        #expect(counts == ["document_too_large": 12, "malformed_jws": 300, "unknown_shape": 6])
        // The store keeps a bounded excerpt of each, never the line.
        #expect(rows.allSatisfy { ($0[2] as Int) <= 200 && ($0[3] as Int) < 1_000 })
    }

    /// A server that answers a history page with 200 MB. `iaplens fetch` reads at most 16 MiB of it, stops
    /// with a sentence naming the request, asks once (an oversized answer is not retried), saves nothing, and its
    /// peak resident memory stays under the bound while the body is still arriving.
    @Test func aFetchAnswered200MBStopsAtTheLimitWithBoundedMemory() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let server = FakeAppStoreServer(
            data: world.data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId,
            faults: [1: .oversized(200 << 20)])
        let url = try server.start()
        defer { server.stop() }
        let fetched = archive.root + "/fetched"
        let running = try CLI.Running([
            "fetch", "--archive", fetched, "--database", archive.database, "--bundle-id", world.app.bundleId,
            "--issuer-id", key.issuerId, "--key-id", key.keyId, "--private-key", key.path, "--api-url", url,
            "--refund-history", "none",
        ])
        let (result, peak) = try Self.waitMeasuringPeak(running)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("more than 16 MiB"), "\(result.stderr)")
        #expect(result.seconds < 120, "a refused body costs one request, not minutes")
        #expect(server.requests.count == 1, "\(server.requests)")
        #expect(peak > 0 && peak < Self.bound, "peak resident memory \(peak / 1024) MB, over the 200 MB bound")
        let saved =
            FileManager.default.enumerator(atPath: fetched)?.allObjects.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".json") || $0.hasSuffix(".jsonl")
            } ?? []
        #expect(saved.isEmpty, "nothing of the oversized answer was saved: \(saved)")
    }

    /// A financial report answered with 300 MB. Before: the limit was 256 MiB, the message said 16 MiB and "not asked
    /// again" (it was), and memory peaked at 319 MB. After: the download stops at 64 MiB, the message says so and that
    /// the next fetch asks again, nothing is saved, and peak resident memory stays under the bound.
    @Test func aFinancialReportAnswered300MBStopsAtItsLimitWithBoundedMemory() throws {
        let archive = try TestArchive()
        let world = try FetchWorld()
        let key = try TestAPIKey(folder: archive.root + "/keys")
        let connect = try TestAPIKey(
            folder: archive.root + "/connect", keyId: "CONNECT123", issuerId: "69a6de7e-0000-47e3-e053-5b8c7c11a4d1")
        let server = FakeAppStoreServer(
            data: world.data, key: try key.key(), keyId: key.keyId, issuerId: key.issuerId,
            bundleId: world.app.bundleId,
            faults: [1: .oversized(300 << 20)])
        server.acceptConnectKey(try connect.key(), keyId: connect.keyId, issuerId: connect.issuerId)
        let url = try server.start()
        defer { server.stop() }
        let fetched = archive.root + "/fetched"
        let since = ISO8601Millis.format(Int64(Date().timeIntervalSince1970 * 1000) - 60 * 86_400_000)
        let running = try CLI.Running([
            "fetch", "--archive", fetched, "--database", archive.database, "--bundle-id", world.app.bundleId,
            "--connect-issuer-id", connect.issuerId, "--connect-key-id", connect.keyId, "--connect-private-key",
            connect.path,
            "--vendor-number", "85012345", "--connect-api-url", url, "--since", since,
        ])
        let (result, peak) = try Self.waitMeasuringPeak(running)
        #expect(result.status != 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("more than 64 MiB") && result.stderr.contains("asks for it again"),
            "\(result.stderr)")
        #expect(peak > 0 && peak < Self.bound, "peak resident memory \(peak / 1024) MB, over the 200 MB bound")
        let saved =
            FileManager.default.enumerator(atPath: fetched)?.allObjects.compactMap { $0 as? String }.filter {
                $0.contains("FINANCE")
            } ?? []
        #expect(saved.isEmpty, "\(saved)")
    }

    /// A gzip file of `count` members, each the compressed `line()`: only one line is in memory at a time.
    private func writeMembers(_ path: String, count: Int, line: () -> [UInt8]) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let member = Gzip.compress(line(), level: 1) ?? []
        for _ in 0..<count { try handle.write(contentsOf: Data(member)) }
        try handle.close()
    }

    /// Waits for the child, reading its peak resident memory (KB) every 10 ms while it runs.
    static func waitMeasuringPeak(_ running: CLI.Running) throws -> (CLI.Result, Int) {
        var peak = 0
        while running.process.isRunning {
            peak = max(peak, highWaterMark(pid: running.pid) ?? 0)
            usleep(10_000)
        }
        return (try running.wait(), peak)
    }

    /// The process's peak resident memory so far, in KB (Linux's `VmHWM`); nil once it is gone.
    static func highWaterMark(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "")
    }
}
