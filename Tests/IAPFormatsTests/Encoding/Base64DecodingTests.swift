import Foundation
import Testing

@testable import IAPFormats

/// The decoder against Foundation's on every length up to a few groups past the fast loop's edge, both alphabets,
/// and with one character spoiled at every position (the fast loop checks validity once, after the loop).
@Suite struct Base64DecodingTests {
    /// Deterministic bytes: the same fixtures on every run.
    private static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    private static func urlSafe(_ standard: String) -> String {
        String(standard.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    @Test func decodesWhatFoundationEncodesAtEveryLength() {
        for count in 0...130 {
            let original = Self.bytes(count, seed: UInt64(count) + 1)
            let padded = Data(original).base64EncodedString()
            let unpadded = String(padded.prefix { $0 != "=" })
            #expect(Base64Decoding.decode(padded, alphabet: .standard) == original, "length \(count), padded")
            #expect(Base64Decoding.decode(unpadded, alphabet: .standard) == original, "length \(count)")
            #expect(Base64Decoding.decode(Self.urlSafe(unpadded), alphabet: .url) == original, "length \(count), url")
        }
    }

    @Test func oneBadCharacterAnywhereIsRejected() {
        let original = Self.bytes(60, seed: 7)
        let text = Array(Self.urlSafe(Data(original).base64EncodedString()).utf8)
        for position in text.indices {
            for bad in ["+", "/", "=", " ", "\u{0}", "é"] {
                // Padding in the last place can be legitimate (the 80th character here carries 4 bits).
                if bad == "=", position == text.count - 1 { continue }
                var spoiled = text
                spoiled.replaceSubrange(position...position, with: Array(bad.utf8))
                let decoded = spoiled.withUnsafeBufferPointer { Base64Decoding.decode(bytes: $0, alphabet: .url) }
                #expect(decoded == nil, "\(bad.debugDescription) at \(position)")
            }
        }
    }

    /// The AVX2 blocks (32 characters each) and the tables agree on every byte value at every place of two blocks,
    /// in both alphabets: the same bytes for a valid text, nil for any character outside the alphabet.
    @Test func vectorBlocksAgreeWithTheTablesOnEveryByteValue() {
        let original = Self.bytes(72, seed: 11)
        let standard = Array(Data(original).base64EncodedString().utf8)
        let url = Array(Self.urlSafe(Data(original).base64EncodedString()).utf8)
        for (text, alphabet) in [(standard, Base64Decoding.Alphabet.standard), (url, .url)] {
            for position in 0..<64 {
                for value in 0...255 {
                    var spoiled = text
                    spoiled[position] = UInt8(value)
                    let fast = spoiled.withUnsafeBufferPointer {
                        Base64Decoding.decode(bytes: $0, alphabet: alphabet, vectors: true)
                    }
                    let slow = spoiled.withUnsafeBufferPointer {
                        Base64Decoding.decode(bytes: $0, alphabet: alphabet, vectors: false)
                    }
                    if fast != slow {
                        Issue.record(
                            "\(alphabet) byte \(value) at \(position): \(String(describing: fast)) against \(String(describing: slow))"
                        )
                    }
                }
            }
        }
    }

    /// Long texts, as a notification's payload is, decode to Foundation's bytes whichever path takes each part.
    @Test func longTextsDecodeToFoundationsBytes() {
        for count in [200, 767, 768, 769, 1_000, 4_095, 9_001] {
            let original = Self.bytes(count, seed: UInt64(count))
            let unpadded = String(Data(original).base64EncodedString().prefix { $0 != "=" })
            #expect(Base64Decoding.decode(Self.urlSafe(unpadded), alphabet: .url) == original, "length \(count)")
            #expect(Base64Decoding.decode(unpadded, alphabet: .standard) == original, "length \(count)")
        }
    }
}
