import CFixedKeyECDSA
import COpenSSL
import Dispatch
import Foundation
import IAPFormats
import IAPPipeline
import IAPStore
import IAPVerification

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
        FileHandle.standardError.write(
            "usage: iaplens-bench verify-archive --input DIR --root PEM\n".data(using: .utf8)!)
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
