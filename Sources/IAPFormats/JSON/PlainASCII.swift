import CAVX2TextKernels

/// The fast path of every JSON string scan (``JSONScanner`` and ``FlatJSONObject``): how far the text runs from a
/// position before a byte that needs a look, which is a quote, a backslash, a control character or a non-ASCII
/// byte. JWS strings are kilobytes of base64, so this is where string scanning spends its time.
enum PlainASCII {
    /// The first position at or after `start` where a block of eight holds such a byte, checked 32 bytes at a time
    /// with AVX2 where the CPU has it (`CAVX2TextKernels`), then sixteen, then eight; the caller looks at the bytes from
    /// there one at a time (fewer than eight may be left). `vectors: false` skips the AVX2 step, as a CPU without it
    /// does, so the tests can hold one path to the other.
    @inline(__always)
    static func end(of bytes: UnsafeRawBufferPointer, from start: Int, vectors: Bool = FastPath.vectorText.isEnabled)
        -> Int
    {
        var index = start
        guard let base = bytes.baseAddress else { return index }
        if vectors { index = iaplens_plain_ascii_end(base.assumingMemoryBound(to: UInt8.self), bytes.count, start) }
        // Then sixteen bytes at a time, as portable vector compares: a JWS string is kilobytes long, and in the profile
        // of decode-archive the string scan fell from 8.3 % to 6.2 % of decoding (Documentation/Performance.md,
        // "Reading through ISA-L"). Unrolling to 64 bytes a trip changed nothing.
        let quote16 = SIMD16<UInt8>(repeating: Byte.quote)
        let backslash16 = SIMD16<UInt8>(repeating: Byte.backslash)
        let space16 = SIMD16<UInt8>(repeating: 0x20)
        let high16 = SIMD16<UInt8>(repeating: 0x80)
        while index + 16 <= bytes.count {
            let chunk = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let special = (chunk .== quote16) .| (chunk .== backslash16) .| (chunk .< space16) .| (chunk .>= high16)
            // `any(_:)` compiles to a chain of shuffles here; the mask's two 64-bit words are one test.
            let words = unsafeBitCast(special, to: SIMD2<UInt64>.self)
            if words[0] | words[1] != 0 { break }
            index += 16
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = ones &* UInt64(Byte.quote)
        let backslashes = ones &* UInt64(Byte.backslash)
        while index + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ quotes
            let backslash = word ^ backslashes
            // A byte is zero in `quote`/`backslash` where the word had that character; a byte below 0x20 sets
            // the high bit of `word - 0x20…`; and non-ASCII bytes have their own high bit set.
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                | ((word &- ones &* 0x20) & ~word) | word
            if special & highs != 0 { return index }
            index += 8
        }
        return index
    }
}
