import CFixedKeyECDSA
import COpenSSL
import Dispatch
import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPVerification

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
    guard let input = argument("--input"), let bundleId = argument("--bundle-id"), let path = argument("--database")
    else {
        FileHandle.standardError.write(
            "usage: iaplens-bench write-archive --input DIR --bundle-id ID --database PATH [--limit N]\n".data(
                using: .utf8)!)
        exit(2)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
        FileHandle.standardError.write(
            "write-archive: \(path) exists; give a path for a new store\n".data(using: .utf8)!)
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
    for (number, file) in try InputDiscovery.discover([input]).files.sorted(by: { $0.byteCount > $1.byteCount })
        .enumerated()
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
