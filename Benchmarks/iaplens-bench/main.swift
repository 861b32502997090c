// iaplens-bench: the measurements scripts/benchmark.sh cannot make with the iaplens binary alone.
//
//   iaplens-bench floor [--seconds S] [--threads N]
//       OpenSSL's raw P-256 (ES256) verify rate through the EVP calls the verifier makes before a key has its table
//       (SHA-256 with EVP_Digest*, then EVP_PKEY_verify on the digest with a verify context reused per thread),
//       on 1 thread and on N threads; then the same with the key's precomputed table (CFixedKeyECDSA), the way
//       ingest checks once a leaf key has signed 1,000 documents: `table_verify_*`.
//   iaplens-bench verify-archive --input DIR --root PEM [--threads N]
//       Every JWS of every document under DIR, parsed and verified through JWSVerifier on N threads,
//       without storing anything: the verification stage alone. Also counts notifications and JWS.
//   iaplens-bench read-archive --input DIR [--threads N]
//       Every file under DIR read, decompressed and split into documents (the same DocumentReader as ingest),
//       files spread over N threads, nothing parsed: the least work any ingest must do, so the bound on
//       --no-verify ingest.
//   iaplens-bench decode-archive --input DIR --bundle-id ID [--limit N] [--root PEM]
//       Every line of the first N documents (default 20,000) turned into store rows by ingest's own
//       DocumentProcessor with signatures decoded but not checked, on one thread, timed around the processing
//       only (lines are read first): the CPU ingest spends per document besides the signatures, reading and
//       the writer. One thread and no I/O make it steady enough to compare small changes. With --root, every
//       signature is checked too (none reused), and the signatures checked per document are printed.
//   iaplens-bench write-archive --input DIR --bundle-id ID --database PATH [--limit N]
//       The first N documents (default 100,000) decoded as decode-archive does, then written into a new SQLite store
//       at PATH by ingest's own writer, in ingest's batches (4,096 documents), as a bulk load: the writer's share
//       alone, on one thread with nothing else running, timed around the writes and then the index builds, in wall
//       and process CPU time. Steady enough to compare changes to the writer of a microsecond per document.
//
// Output is `key value` lines, easy for the script to read.
import CFixedKeyECDSA
import COpenSSL
import Dispatch
import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPVerification



func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let index = args.firstIndex(of: name), index + 1 < args.count else { return nil }
    return args[index + 1]
}

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

let cores = ProcessInfo.processInfo.activeProcessorCount
let threads = argument("--threads").flatMap(Int.init) ?? cores

// MARK: - Raw P-256 verify rate

/// A P-256 key and one signature over a JWS-sized message, made once.
struct FloorFixture: @unchecked Sendable {
    let key: OpaquePointer
    let message: [UInt8]
    let signature: [UInt8]

    init(messageBytes: Int) {
        let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil)!
        precondition(EVP_PKEY_keygen_init(context) == 1)
        precondition(EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1)
        var generated: OpaquePointer?
        precondition(EVP_PKEY_keygen(context, &generated) == 1)
        EVP_PKEY_CTX_free(context)
        key = generated!
        message = (0..<messageBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sign = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(sign) }
        precondition(EVP_DigestSignInit(sign, nil, EVP_sha256(), nil, key) == 1)
        var length = 0
        precondition(EVP_DigestSign(sign, nil, &length, message, message.count) == 1)
        var bytes = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(sign, &bytes, &length, message, message.count) == 1)
        signature = Array(bytes.prefix(length))
        // The same key with its table, and the signature as the raw r‖s a JWS carries.
        var point = [UInt8](repeating: 0, count: 65)
        var pointLength = 0
        precondition(EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &pointLength) == 1)
        table = iaplens_fixed_key_new(point, pointLength)!
        var derPointer: UnsafePointer<UInt8>? = nil
        let parsed: OpaquePointer = signature.withUnsafeBufferPointer { buffer in
            derPointer = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &derPointer, buffer.count)!
        }
        var raw = [UInt8](repeating: 0, count: 64)
        precondition(BN_bn2binpad(ECDSA_SIG_get0_r(parsed), &raw, 32) == 32)
        raw.withUnsafeMutableBufferPointer { buffer in
            precondition(BN_bn2binpad(ECDSA_SIG_get0_s(parsed), buffer.baseAddress! + 32, 32) == 32)
        }
        ECDSA_SIG_free(parsed)
        rawSignature = raw
    }

    /// The key's precomputed table, read-only, shared by every thread.
    let table: OpaquePointer
    let rawSignature: [UInt8]

    /// SHA-256 of the message, then the check with the key's table.
    func verifyWithTable() -> Bool {
        guard let digest = messageDigest() else { return false }
        return iaplens_fixed_key_verify(table, digest, rawSignature) == 1
    }

    /// The message's SHA-256 through EVP_Digest*, as the verifier computes a signing input's.
    func messageDigest() -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: 32)
        let md = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(md) }
        var length: UInt32 = 0
        guard EVP_DigestInit_ex(md, EVP_sha256(), nil) == 1, EVP_DigestUpdate(md, message, message.count) == 1,
            EVP_DigestFinal_ex(md, &digest, &length) == 1
        else { return nil }
        return digest
    }

    /// SHA-256 fetched once (OpenSSL 3 otherwise looks the digest up on every init).
    nonisolated(unsafe) static let sha256 = EVP_MD_fetch(nil, "SHA256", nil)

    /// The variant measured: "verifier" (as LeafPublicKey: SHA-256, then EVP_PKEY_verify on a verify context
    /// initialised once per thread and reused, as `openssl speed` does), "fresh-context" (the same with a new
    /// context per signature, the verifier before session 4), "evp" (EVP_DigestVerify*, the verifier's calls before
    /// the digest was shared), "evp-fetched" (the same with the digest fetched once).
    static let variant = argument("--variant") ?? "verifier"

    /// A verify context for one thread.
    func makeContext() -> OpaquePointer {
        let context = EVP_PKEY_CTX_new(key, nil)!
        precondition(EVP_PKEY_verify_init(context) == 1)
        return context
    }

    func verify(reusing context: OpaquePointer) -> Bool {
        switch Self.variant {
        case "evp": return verifyEVP(EVP_sha256())
        case "evp-fetched": return verifyEVP(Self.sha256)
        case "fresh-context":
            let fresh = makeContext()
            defer { EVP_PKEY_CTX_free(fresh) }
            return verifyPKey(fresh)
        default: return verifyPKey(context)
        }
    }

    func verifyPKey(_ context: OpaquePointer) -> Bool {
        guard let digest = messageDigest() else { return false }
        return EVP_PKEY_verify(context, signature, signature.count, digest, 32) == 1
    }

    /// One verification through EVP_DigestVerify*.
    func verifyEVP(_ md: OpaquePointer?) -> Bool {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, md, nil, key) == 1,
            EVP_DigestVerifyUpdate(context, message, message.count) == 1
        else { return false }
        return EVP_DigestVerifyFinal(context, signature, signature.count) == 1
    }
}

func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Verifies on `threads` threads for about `seconds`; returns verifications per second of wall clock (all
/// threads) and per CPU-second (what one core does when nothing else competes for it).
func measureFloor(_ fixture: FloorFixture, threads: Int, seconds: Double, withTable: Bool = false) -> (wall: Double, perCPUSecond: Double) {
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: threads)
    counts.initialize(repeating: 0, count: threads)
    defer { counts.deallocate() }
    let cpu = UnsafeMutablePointer<Double>.allocate(capacity: threads)
    cpu.initialize(repeating: 0, count: threads)
    defer { cpu.deallocate() }
    let cpuBox = UnsafeSendableDouble(cpu)
    let start = now()
    let deadline = start + seconds
    let box = UnsafeSendable(counts)
    DispatchQueue.concurrentPerform(iterations: threads) { index in
        var done = 0
        let context = fixture.makeContext()
        defer { EVP_PKEY_CTX_free(context) }
        let cpuStart = threadCPUTime()
        while true {
            for _ in 0..<64 { precondition(withTable ? fixture.verifyWithTable() : fixture.verify(reusing: context)) }
            done += 64
            if now() >= deadline { break }
        }
        box.pointer[index] = done
        cpuBox.pointer[index] = threadCPUTime() - cpuStart
    }
    let elapsed = now() - start
    let total = Double((0..<threads).reduce(0) { $0 + counts[$1] })
    let cpuSeconds = (0..<threads).reduce(0.0) { $0 + cpu[$1] }
    return (total / elapsed, total / cpuSeconds)
}

struct UnsafeSendableDouble: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Double>
    init(_ pointer: UnsafeMutablePointer<Double>) { self.pointer = pointer }
}

struct UnsafeSendable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
    init(_ pointer: UnsafeMutablePointer<Int>) { self.pointer = pointer }
}

func runFloor() {
    let seconds = argument("--seconds").flatMap(Double.init) ?? 3
    // 64 bytes like `openssl speed` (pure verify) and ~5 KB like a notification's signing input.
    for size in [64, 5_000] {
        let fixture = FloorFixture(messageBytes: size)
        _ = measureFloor(fixture, threads: 1, seconds: 0.3)  // warm up
        let single = measureFloor(fixture, threads: 1, seconds: seconds)
        let all = measureFloor(fixture, threads: threads, seconds: seconds)
        let suffix = size == 64 ? "" : "_5kb"
        print(String(format: "floor_verify_per_s_1_thread%@ %.0f", suffix, single.wall))
        print(String(format: "floor_verify_per_s_%d_threads%@ %.0f", threads, suffix, all.wall))
        print(String(format: "floor_verify_per_cpu_s%@ %.0f", suffix, all.perCPUSecond))
    }
    // Ingest's own check once a key has its table: what the signature checks of a verified ingest cost.
    let fixture = FloorFixture(messageBytes: 64)
    _ = measureFloor(fixture, threads: 1, seconds: 0.3, withTable: true)
    let single = measureFloor(fixture, threads: 1, seconds: seconds, withTable: true)
    let all = measureFloor(fixture, threads: threads, seconds: seconds, withTable: true)
    print(String(format: "table_verify_per_s_1_thread %.0f", single.wall))
    print(String(format: "table_verify_per_s_%d_threads %.0f", threads, all.wall))
    print(String(format: "table_verify_per_cpu_s %.0f", all.perCPUSecond))
    print("floor_threads \(threads)")
}

// MARK: - Verification stage alone

/// The JWS of one document, with the time each is verified at.
struct Signed: Sendable {
    let jws: String
    let fallback: Int64?
}

func signedDate(_ payload: JSONValue) -> Int64? { payload["signedDate"]?.int64Value }

/// Verifies one JWS and returns its payload, nested JWS strings included (for the caller to verify).
func verifyOne(_ verifier: JWSVerifier, _ jws: String, fallback: Int64?) -> JSONValue? {
    guard case .success(let compact) = CompactJWS.parse(jws),
        let payload = try? JSONParser.parse(compact.payload),
        let time = signedDate(payload) ?? fallback,
        case .success = verifier.verify(compact, atMillis: time)
    else { return nil }
    return payload
}

func runVerifyArchive() throws {
    guard let input = argument("--input"), let rootPath = argument("--root") else {
        FileHandle.standardError.write("usage: iaplens-bench verify-archive --input DIR --root PEM\n".data(using: .utf8)!)
        exit(2)
    }
    let verifier = try JWSVerifier(trustedRoots: try TrustedRoot.load(fromFile: rootPath))
    let files = try InputDiscovery.discover([input]).files
    var documents = 0
    var jwsCount = 0
    var failures = 0
    var busy = 0.0
    let start = now()
    for file in files {
        var lines: [[UInt8]] = []
        func flush() {
            let results = UnsafeMutablePointer<(Int, Int)>.allocate(capacity: lines.count)
            defer { results.deallocate() }
            let box = ResultBox(results)
            let work = lines
            let t0 = now()
            DispatchQueue.concurrentPerform(iterations: work.count) { index in
                var verified = 0
                var failed = 0
                var outer: [String] = []
                if case .success(let document) = DocumentShape.recognise(work[index]) {
                    switch document.body {
                    case .v2Notification(let jws): outer = [jws]
                    case .notificationHistoryPage(let entries, _, _), .refundHistoryPage(let entries, _, _),
                        .transactionHistoryPage(let entries, _, _),
                        .orderLookup(_, _, let entries):
                        for case .jws(let jws) in entries { outer.append(jws) }
                    case .v1Notification: break
                    }
                }
                for jws in outer {
                    guard let payload = verifyOne(verifier, jws, fallback: nil) else { failed += 1; continue }
                    verified += 1
                    let time = signedDate(payload)
                    for key in ["signedTransactionInfo", "signedRenewalInfo"] {
                        if let nested = payload["data"]?[key]?.stringValue {
                            if verifyOne(verifier, nested, fallback: time) != nil { verified += 1 } else { failed += 1 }
                        }
                    }
                }
                box.pointer[index] = (verified, failed)
            }
            busy += now() - t0
            for index in 0..<work.count {
                jwsCount += results[index].0
                failures += results[index].1
            }
            documents += work.count
            lines.removeAll(keepingCapacity: true)
        }
        for item in DocumentReader(file: file) {
            if case .document(_, let bytes) = item {
                lines.append(bytes)
                if lines.count >= 1_024 { flush() }
            }
        }
        flush()
    }
    let elapsed = now() - start
    print("verify_documents \(documents)")
    print("verify_jws \(jwsCount)")
    print("verify_failures \(failures)")
    print(String(format: "verify_seconds %.3f", elapsed))
    print(String(format: "verify_parallel_seconds %.3f", busy))
    print(String(format: "verify_jws_per_s %.0f", Double(jwsCount) / elapsed))
    print(String(format: "verify_documents_per_s %.0f", Double(documents) / elapsed))
}

struct ResultBox: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<(Int, Int)>
    init(_ pointer: UnsafeMutablePointer<(Int, Int)>) { self.pointer = pointer }
}

// MARK: - Reading alone

func runReadArchive() throws {
    guard let input = argument("--input") else {
        FileHandle.standardError.write("usage: iaplens-bench read-archive --input DIR\n".data(using: .utf8)!)
        exit(2)
    }
    // Largest first, so one big file does not run alone at the end.
    let files = try InputDiscovery.discover([input]).files.sorted { $0.byteCount > $1.byteCount }
    let counts = UnsafeMutablePointer<(documents: Int, bytes: Int)>.allocate(capacity: threads)
    counts.initialize(repeating: (0, 0), count: threads)
    defer { counts.deallocate() }
    let box = ReadBox(counts)
    let next = NSLock()
    nonisolated(unsafe) var cursor = 0
    let start = now()
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        while true {
            let index: Int = next.withLock { defer { cursor += 1 }; return cursor }
            guard index < files.count else { return }
            for item in DocumentReader(file: files[index]) {
                if case .document(_, let bytes) = item {
                    box.pointer[thread].documents += 1
                    box.pointer[thread].bytes += bytes.count
                }
            }
        }
    }
    let elapsed = now() - start
    let documents = (0..<threads).reduce(0) { $0 + counts[$1].documents }
    let bytes = (0..<threads).reduce(0) { $0 + counts[$1].bytes }
    print("read_lines \(documents)")
    print("read_bytes \(bytes)")
    print(String(format: "read_seconds %.3f", elapsed))
    print(String(format: "read_lines_per_s %.0f", Double(documents) / elapsed))
}

struct ReadBox: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<(documents: Int, bytes: Int)>
    init(_ pointer: UnsafeMutablePointer<(documents: Int, bytes: Int)>) { self.pointer = pointer }
}

// MARK: - Decoding alone

func runDecodeArchive() throws {
    guard let input = argument("--input"), let bundleId = argument("--bundle-id") else {
        FileHandle.standardError.write("usage: iaplens-bench decode-archive --input DIR --bundle-id ID [--limit N] [--root PEM]\n".data(using: .utf8)!)
        exit(2)
    }
    let limit = argument("--limit").flatMap(Int.init) ?? 20_000
    var lines: [(file: SourceFile, line: Int, bytes: [UInt8])] = []
    // Largest files first: the notification files, not the small lookup pages.
    for file in try InputDiscovery.discover([input]).files.sorted(by: { $0.byteCount > $1.byteCount }) where lines.count < limit {
        let source = SourceFile(path: file.path, sha256: String(repeating: "0", count: 64), byteCount: file.byteCount)
        for item in DocumentReader(file: file) {
            guard lines.count < limit else { break }
            if case .document(let line, let bytes) = item { lines.append((source, line, bytes)) }
        }
    }
    // With --root, the same processing with every signature checked (none taken from the reuse cache), so the
    // difference from a run without it is what verification adds to one thread's work per document.
    let verifier = try argument("--root").map { path in
        try JWSVerifier(trustedRoots: try TrustedRoot.load(fromFile: path))
    }
    let policy = IngestPolicy(bundleId: bundleId, verifySignatures: verifier != nil)
    let processor = DocumentProcessor(policy: policy, verifier: verifier)
    var documents = 0
    var best = Double.infinity
    let passes = 3
    for _ in 0..<passes {
        documents = 0
        let start = now()
        for entry in lines {
            documents += processor.process(bytes: entry.bytes, line: entry.line, file: entry.file).documents.count
        }
        best = min(best, now() - start)
    }
    print("decode_lines \(lines.count)")
    print("decode_documents \(documents)")
    print(String(format: "decode_seconds_best_of_3 %.3f", best))
    print(String(format: "decode_us_per_document %.2f", best * 1e6 / Double(documents)))
    if let verifier {
        print(String(format: "decode_signatures_per_document %.3f", Double(verifier.signatureChecks) / Double(passes * documents)))
    }
}

// MARK: - Writing alone

func processSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Bytes this process has written so far through write(2) and its kind (`wchar` in /proc/self/io), page cache or not.
func bytesWritten() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
    let line = text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
    return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
}

func runWriteArchive() throws {
    guard let input = argument("--input"), let bundleId = argument("--bundle-id"), let path = argument("--database") else {
        FileHandle.standardError.write("usage: iaplens-bench write-archive --input DIR --bundle-id ID --database PATH [--limit N]\n".data(using: .utf8)!)
        exit(2)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
        FileHandle.standardError.write("write-archive: \(path) exists; give a path for a new store\n".data(using: .utf8)!)
        exit(2)
    }
    let limit = argument("--limit").flatMap(Int.init) ?? 100_000
    let processor = DocumentProcessor(policy: IngestPolicy(bundleId: bundleId, verifySignatures: false), verifier: nil)
    let store = try SQLiteStore(path: path)
    let runId = try RunLog(store: store).begin(command: "bench", isVerified: false)
    // Each file's rows between its start and completion records, as ingest hands them over, 4,096 documents a write.
    var writes: [[DocumentBatch]] = [[]]
    var pending = 0
    var documents = 0
    var files: [(path: String, byteCount: Int64)] = []
    for (number, file) in try InputDiscovery.discover([input]).files.sorted(by: { $0.byteCount > $1.byteCount }).enumerated()
    where documents < limit {
        let hash = String(repeating: String(format: "%08x", number), count: 8)
        let source = SourceFile(path: file.path, sha256: hash, byteCount: file.byteCount)
        files.append((file.path, file.byteCount))
        var started = DocumentBatch()
        started.startedFiles = [StartedFile(fileSHA256: hash, path: file.path, byteCount: file.byteCount, runId: runId)]
        writes[writes.count - 1].append(started)
        var inFile = 0
        for item in DocumentReader(file: file) {
            guard documents < limit else { break }
            guard case .document(let line, let bytes) = item else { continue }
            let batch = processor.process(bytes: bytes, line: line, file: source)
            documents += batch.documents.count
            inFile += batch.documents.count
            pending += batch.documents.count
            writes[writes.count - 1].append(batch)
            if pending >= 4_096 {
                writes.append([])
                pending = 0
            }
        }
        var completed = DocumentBatch()
        completed.completedFiles = [CompletedFile(fileSHA256: hash, documents: inFile, runId: runId)]
        writes[writes.count - 1].append(completed)
    }
    let writer = store.makeDocumentWriter()
    let isBulk = try writer.beginIngest(files: files)
    let (wallStart, cpuStart, bytesStart) = (now(), processSeconds(), bytesWritten())
    for batches in writes where !batches.isEmpty { try writer.write(batches) }
    let (wallWritten, cpuWritten, bytesAfterWrites) = (now(), processSeconds(), bytesWritten())
    try writer.finishIngest()
    let (wallEnd, cpuEnd, bytesEnd) = (now(), processSeconds(), bytesWritten())
    let perDocument = { (seconds: Double) in String(format: "%.2f", seconds * 1e6 / Double(documents)) }
    print(String(format: "write_phase_monotonic %.6f %.6f %.6f", wallStart, wallWritten, wallEnd))
    print("write_documents \(documents)")
    print("write_bulk_load \(isBulk)")
    print("write_wall_us_per_document \(perDocument(wallWritten - wallStart))")
    print("write_cpu_us_per_document \(perDocument(cpuWritten - cpuStart))")
    print("index_wall_us_per_document \(perDocument(wallEnd - wallWritten))")
    print("index_cpu_us_per_document \(perDocument(cpuEnd - cpuWritten))")
    print("write_bytes_per_document \((bytesAfterWrites - bytesStart) / documents)")
    print("index_bytes_per_document \((bytesEnd - bytesAfterWrites) / documents)")
}

switch CommandLine.arguments.dropFirst().first {
case "floor": runFloor()
case "write-archive": try runWriteArchive()
case "decode-archive": try runDecodeArchive()
case "verify-archive": try runVerifyArchive()
case "read-archive": try runReadArchive()
default:
    FileHandle.standardError.write("usage: iaplens-bench floor|verify-archive|read-archive|decode-archive|write-archive …\n".data(using: .utf8)!)
    exit(2)
}
