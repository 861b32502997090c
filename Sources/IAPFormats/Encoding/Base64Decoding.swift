import CAVX2TextKernels

/// Strict base64 decoding for JWS segments (base64url) and `x5c` entries (standard base64).
///
/// Hand-written rather than Foundation's so one pass handles both alphabets, rejects the other alphabet's
/// characters (a `+` in a base64url segment is an error), and works on UTF-8 views without copying.
public enum Base64Decoding {
    /// Which 64-character alphabet a text uses.
    public enum Alphabet {
        /// RFC 4648 §5 without padding, as JWS compact segments are written (RFC 7515 §2). A `=` is refused, as
        /// Apple's libraries refuse it: padded, the same signature would be a second text, and so a second identity
        /// for one JWS (``CompactJWS/identity`` is taken of the exact text).
        case url
        /// RFC 4648 §4, used by `x5c`; padding is tolerated but not required.
        case standard
    }

    private static let invalid: UInt8 = 0xFF

    private static func table(for alphabet: Alphabet) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for (index, byte) in letters.enumerated() { table[Int(byte)] = UInt8(index) }
        switch alphabet {
        case .url:
            table[Int(UInt8(ascii: "-"))] = 62
            table[Int(UInt8(ascii: "_"))] = 63
        case .standard:
            table[Int(UInt8(ascii: "+"))] = 62
            table[Int(UInt8(ascii: "/"))] = 63
        }
        return table
    }

    /// A character's 6 bits already moved to where they land in a group's 24, one table per position in the group
    /// (256 entries each, one after the other), so a group is four look-ups ORed together. A character outside the
    /// alphabet sets bit 24 in every table, which no valid group reaches.
    private static func shiftedTables(for alphabet: Alphabet) -> [UInt32] {
        let values = table(for: alphabet)
        var tables = [UInt32](repeating: 0, count: 4 * 256)
        for position in 0..<4 {
            for character in 0..<256 {
                let value = values[character]
                tables[position * 256 + character] =
                    value == invalid
                    ? invalidGroup : UInt32(value) << UInt32(18 - 6 * position)
            }
        }
        return tables
    }

    private static let invalidGroup: UInt32 = 1 << 24
    // The tables live in memory of their own, never freed and never written after it is filled, and are read
    // through pointers. Held as static arrays, each call retained and released them, and with every core decoding
    // at once the cores took turns owning the arrays' reference counts (Documentation/Performance.md,
    // "Retains, copies and purges").
    nonisolated(unsafe) private static let urlTable = permanent(table(for: .url))
    nonisolated(unsafe) private static let standardTable = permanent(table(for: .standard))
    nonisolated(unsafe) private static let urlShifted = permanent(shiftedTables(for: .url))
    nonisolated(unsafe) private static let standardShifted = permanent(shiftedTables(for: .standard))

    private static func permanent<Element>(_ values: [Element]) -> UnsafeBufferPointer<Element> {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: values.count)
        _ = memory.initialize(from: values)
        return UnsafeBufferPointer(memory)
    }

    /// Decodes `text`, or returns nil if it holds a character outside the alphabet, misplaced padding,
    /// or a length no encoder produces.
    public static func decode<S: StringProtocol>(_ text: S, alphabet: Alphabet) -> [UInt8]? {
        let utf8 = text.utf8
        if let result = utf8.withContiguousStorageIfAvailable({ decode(bytes: $0, alphabet: alphabet) }) {
            return result
        }
        return Array(utf8).withUnsafeBufferPointer { decode(bytes: $0, alphabet: alphabet) }
    }

    /// Decodes raw UTF-8 bytes; see `decode(_:alphabet:)`.
    ///
    /// Whole blocks of 32 characters go through AVX2 where the CPU has it (`CAVX2TextKernels`, about five times the table's
    /// speed), the rest four characters at a time into a buffer sized up front, through the pre-shifted tables. The
    /// leftover characters go one at a time through `table`, whose invalid marker (0xFF) has its top bit set.
    public static func decode(bytes: UnsafeBufferPointer<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        decode(bytes: bytes, alphabet: alphabet, vectors: FastPath.vectorText.isEnabled)
    }

    /// `vectors: false` decodes everything through the tables, as a CPU without AVX2 does, so the tests can hold one
    /// path to the other.
    static func decode(bytes: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, vectors: Bool) -> [UInt8]? {
        var count = bytes.count
        // Padding may only close the text, at most two characters, and only up to a multiple of 4; base64url has
        // none (a `=` is then outside the alphabet, and refused).
        var padding = 0
        while alphabet == .standard, count > 0, bytes[count - 1] == UInt8(ascii: "="), padding < 2 {
            count -= 1
            padding += 1
        }
        if padding > 0, bytes.count % 4 != 0 { return nil }
        let remainder = count % 4
        if remainder == 1 { return nil }
        guard count > 0, let input = bytes.baseAddress else { return [] }
        let groups = count / 4
        let outputCount = groups * 3 + (remainder == 0 ? 0 : remainder - 1)
        let table = alphabet == .url ? urlTable : standardTable
        let shifted = alphabet == .url ? urlShifted : standardShifted
        var valid = true
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
            var i = 0
            var o = 0
            var invalid: Int32 = 0
            // The vector blocks stop before the last group, which has to be stored byte by byte below.
            if vectors, groups > 8 {
                let blocks = iaplens_base64_decode_blocks(
                    input, (groups - 1) / 8, out.baseAddress, alphabet == .url ? 0 : 1, &invalid)
                i = 32 * blocks
                o = 24 * blocks
            }
            if invalid != 0 { valid = false }
            // Each group: one 4-byte load, four look-ups, and (but for the last) one 4-byte store whose fourth
            // byte the next group overwrites. Invalid characters are collected in `seen` and checked once at the
            // end: a JWS is valid base64 nearly always, so a branch per group only costs
            // (Documentation/Performance.md, "Reading through ISA-L").
            let raw = UnsafeRawPointer(input)
            guard let outBase = out.baseAddress else { return }
            let outRaw = UnsafeMutableRawPointer(outBase)
            func group(at offset: Int) -> UInt32 {
                let four = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                return shifted[Int(four & 0xFF)] | shifted[256 + Int((four >> 8) & 0xFF)]
                    | shifted[512 + Int((four >> 16) & 0xFF)] | shifted[768 + Int(four >> 24)]
            }
            var seen: UInt32 = 0
            for _ in 0..<max(0, groups - 1 - i / 4) {
                let word = group(at: i)
                seen |= word
                outRaw.storeBytes(of: (word << 8).bigEndian, toByteOffset: o, as: UInt32.self)
                i += 4
                o += 3
            }
            if groups > 0 {
                // The last group stores byte by byte: the output ends with it or with the leftover bytes.
                let word = group(at: i)
                seen |= word
                out[o] = UInt8(truncatingIfNeeded: word >> 16)
                out[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                out[o + 2] = UInt8(truncatingIfNeeded: word)
                i += 4
                o += 3
            }
            if seen & invalidGroup != 0 { valid = false }
            if valid, remainder > 0 {
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                let c = remainder == 3 ? table[Int(input[i + 2])] : 0
                if (a | b | c) & 0x80 != 0 {
                    valid = false
                } else if remainder == 2 {
                    // 12 bits for one byte: the 4 left over must be zero, otherwise two different texts
                    // would decode to the same bytes.
                    if b & 0x0F != 0 { valid = false } else { out[o] = a << 2 | b >> 4 }
                } else {
                    if c & 0x03 != 0 {
                        valid = false
                    } else {
                        out[o] = a << 2 | b >> 4
                        out[o + 1] = (b & 0x0F) << 4 | c >> 2
                    }
                }
            }
            initialized = valid ? outputCount : 0
        }
        return valid ? output : nil
    }
}
