// libFuzzer target for the decoding paths every input byte goes through on ingest (the checks themselves:
// Fuzz/DecodingChecks). Built and run by scripts/fuzz.sh; any crash, trap or sanitizer report is a bug, and so is a
// problem the checks return, which traps here.
import Foundation
import IAPVerification

private let checks: DecodingChecks = {
    if let path = ProcessInfo.processInfo.environment["IAPLENS_TEST_FUZZ_ROOT"],
        let loaded = try? TrustedRoot.load(fromFile: path)
    {
        return DecodingChecks(roots: loaded)
    }
    return DecodingChecks(roots: (try? TrustedRoot.appleRootCAG3).map { [$0] } ?? [])
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = checks.check(Array(UnsafeBufferPointer(start: data, count: size)))
    if let first = problems.first { fatalError(first) }
    return 0
}
