import CFixedKeyECDSA
import COpenSSL
import Dispatch
import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPVerification

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
            let index: Int = next.withLock {
                defer { cursor += 1 }; return cursor
            }
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
