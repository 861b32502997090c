import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh folder in the temporary directory (`TMPDIR`, which `scripts/test.sh` empties after the run) for one test
/// (`mkdtemp(3)`), named `iaplens-<purpose>-XXXXXX`.
func temporaryFolder(_ purpose: String) throws -> String {
    var template = Array((NSTemporaryDirectory() + "iaplens-\(purpose)-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap(mkdtemp) }
    try #require(made != nil)
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
