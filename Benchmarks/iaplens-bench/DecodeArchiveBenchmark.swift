import CFixedKeyECDSA
import COpenSSL
import Dispatch
import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPVerification

// MARK: - Decoding alone

func runDecodeArchive() throws {
    guard let input = argument("--input"), let bundleId = argument("--bundle-id") else {
        FileHandle.standardError.write(
            "usage: iaplens-bench decode-archive --input DIR --bundle-id ID [--limit N] [--root PEM]\n".data(
                using: .utf8)!)
        exit(2)
    }
    let limit = argument("--limit").flatMap(Int.init) ?? 20_000
    var lines: [(file: SourceFile, line: Int, bytes: [UInt8])] = []
    // Largest files first: the notification files, not the small lookup pages.
    for file in try InputDiscovery.discover([input]).files.sorted(by: { $0.byteCount > $1.byteCount })
    where lines.count < limit {
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
        print(
            String(
                format: "decode_signatures_per_document %.3f",
                Double(verifier.signatureChecks) / Double(passes * documents)))
    }
}
