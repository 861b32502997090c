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

switch CommandLine.arguments.dropFirst().first {
case "floor": runFloor()
case "write-archive": try runWriteArchive()
case "decode-archive": try runDecodeArchive()
case "verify-archive": try runVerifyArchive()
case "read-archive": try runReadArchive()
default:
    FileHandle.standardError.write(
        "usage: iaplens-bench floor|verify-archive|read-archive|decode-archive|write-archive …\n".data(using: .utf8)!)
    exit(2)
}
