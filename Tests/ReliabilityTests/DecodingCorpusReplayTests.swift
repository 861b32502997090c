import Foundation
import IAPDecodingChecks
import IAPFormats
import IAPVerification
import Testing

/// The fuzzer's seed corpus replayed through the fuzzer's own checks (`Fuzz/DecodingChecks`) on every test run: every
/// line of a small simulated archive (signed V2 notifications, history and refund pages, order lookups, V1 bodies,
/// envelopes, and the simulator's noise: forged, broken and truncated lines), the hand-made seeds, and each line cut
/// short and with a byte flipped. No input may crash a decoder, and no fast path (the in-place readers, the leaf key's
/// table) may answer differently from its reference. The coverage-guided search beyond these inputs is
/// `scripts/fuzz.sh`, run by hand or on a schedule.
@Suite struct DecodingCorpusReplayTests {
    static let handMade: [String] = [
        #"{"receivedAt":"2022-03-15T12:00:00Z","body":{"signedPayload":"a.b.c"}}"#, #"{"a":1,"a":2}"#,
        "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", #"{"n":123456789012345678901234567890e-999}"#,
    ]

    @Test func everySeedAndItsVariantsPassTheFuzzersChecks() throws {
        // The archive scripts/fuzz.sh seeds from.
        let archive = try SimulatedArchive(seed: 42, subscribers: 8, consumableBuyers: 6, refundRings: 1, months: 4)
        let checks = DecodingChecks(roots: try TrustedRoot.load(fromFile: archive.simulatorRoot))
        var inputs = Self.handMade.map { Array($0.utf8) }
        for file in archive.inputFiles where !file.contains("/finance/") {
            let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            for case .document(_, let bytes) in DocumentReader(file: InputFile(path: file, byteCount: size)) {
                inputs.append(bytes)
            }
        }
        #expect(inputs.count > 100, "the seed archive has lines")
        var checked = 0
        var problems: [String] = []
        for (index, bytes) in inputs.enumerated() {
            var variants = [bytes]
            if bytes.count > 2 {
                variants.append(Array(bytes.prefix(bytes.count / 2)))
                var flipped = bytes
                flipped[(index * 7919) % bytes.count] ^= 0x04
                variants.append(flipped)
            }
            for variant in variants {
                problems += checks.check(variant).map { "seed \(index): \($0)" }
                checked += 1
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(checked > 300)
    }
}
