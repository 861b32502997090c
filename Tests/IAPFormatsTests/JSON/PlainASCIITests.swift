import Testing

@testable import IAPFormats

/// The string scan's fast path: with or without the AVX2 step, it never passes a byte that needs a look, and it
/// stops within eight bytes before the first one (the callers look at the rest one byte at a time).
@Suite struct PlainASCIITests {
    /// The first byte at or after `start` that is a quote, a backslash, a control character or not ASCII.
    private static func firstSpecial(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 >= 0x80 }
            ?? bytes.count
    }

    @Test func stopsBeforeEveryByteThatNeedsALookAtEveryPlace() {
        let plain = Array(String(repeating: "eyJhbGciOiJFUzI1NiJ9-_.", count: 5).utf8)
        for vectors in [true, false] {
            for place in 0..<80 {
                for value in 0...255 {
                    var bytes = plain
                    bytes[place] = UInt8(value)
                    for start in [0, 1, 7] where start <= place {
                        let found = bytes.withUnsafeBytes { PlainASCII.end(of: $0, from: start, vectors: vectors) }
                        let special = Self.firstSpecial(bytes, from: start)
                        if found > special || special - found >= 8 {
                            Issue.record(
                                "vectors \(vectors), byte \(value) at \(place) from \(start): \(found), first special \(special)"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test func runsToWithinEightBytesOfTheEndOfPlainText() {
        for count in 0...100 {
            let bytes = [UInt8](repeating: UInt8(ascii: "A"), count: count)
            for vectors in [true, false] {
                let found = bytes.withUnsafeBytes { PlainASCII.end(of: $0, from: 0, vectors: vectors) }
                #expect(found <= count && count - found < 8, "length \(count), vectors \(vectors): \(found)")
            }
        }
    }
}
