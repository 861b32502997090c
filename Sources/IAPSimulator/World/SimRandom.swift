/// A small, fast, seedable PRNG (xoshiro256**) seeded through SplitMix64.
///
/// The simulator never uses the system generator or `random(in:using:)`: the standard
/// library's range algorithms are free to change between toolchains, and the archive must
/// stay byte-identical for a given seed forever.
struct SimRandom: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Seeds the generator from any number of 64-bit words (seed, entity kind, index, …).
    init(_ words: UInt64...) {
        var mix: UInt64 = 0x9E37_79B9_7F4A_7C15
        for word in words {
            mix = SimRandom.splitMix(mix ^ word)
        }
        var state = mix
        s0 = SimRandom.splitMixNext(&state)
        s1 = SimRandom.splitMixNext(&state)
        s2 = SimRandom.splitMixNext(&state)
        s3 = SimRandom.splitMixNext(&state)
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    /// SplitMix64's finaliser: a strong 64-bit mixing function.
    static func splitMix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func splitMixNext(_ state: inout UInt64) -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform integer in `range` (multiply-high reduction; the tiny bias is irrelevant here).
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        if width == 0 { return Int(bitPattern: UInt(next())) }
        let high = next().multipliedFullWidth(by: width).high
        return range.lowerBound + Int(high)
    }

    /// A uniform 64-bit integer in `range`.
    mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        if width == 0 { return Int64(bitPattern: next()) }
        return range.lowerBound + Int64(next().multipliedFullWidth(by: width).high)
    }

    /// A uniform double in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// One element of a non-empty array (the first one if empty would be a programming error, so callers pass literals).
    mutating func pick<T>(_ items: [T]) -> T {
        items[int(in: 0...(items.count - 1))]
    }

    /// Picks an index according to relative weights.
    mutating func weighted(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var roll = unit() * total
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }

    /// A lower-case RFC 4122 version-4-shaped UUID string.
    mutating func uuid() -> String {
        let a = next()
        let b = next()
        let hi = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let lo = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let h = hex(hi, digits: 16)
        let l = hex(lo, digits: 16)
        let hArr = Array(h)
        let lArr = Array(l)
        return String(hArr[0..<8]) + "-" + String(hArr[8..<12]) + "-" + String(hArr[12..<16]) + "-"
            + String(lArr[0..<4]) + "-" + String(lArr[4..<16])
    }

    /// Shuffles `items` in place (Fisher–Yates).
    mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            let j = int(in: 0...i)
            if i != j { items.swapAt(i, j) }
        }
    }

    private func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
