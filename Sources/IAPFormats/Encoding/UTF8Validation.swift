/// Finds bytes that are not UTF-8 in a line of text that must be: Apple's finance files are UTF-8, and a copy saved
/// in another encoding (Latin-1 or Windows-1252, as a spreadsheet may save it) would otherwise be read with its
/// accented letters replaced, a region or product name quietly changed.
public enum UTF8Validation {
    /// The 1-based column (in bytes) of the first byte that does not begin a valid UTF-8 sequence, and that byte; nil
    /// when the line is valid UTF-8.
    public static func firstInvalidByte(_ bytes: [UInt8]) -> (column: Int, byte: UInt8)? {
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            if length == 0 { return (index + 1, bytes[index]) }
            index += length
        }
        return nil
    }

    /// A sentence for a reader's refusal: which byte, where, and what to do.
    public static func problem(_ bytes: [UInt8]) -> String? {
        guard let (column, byte) = firstInvalidByte(bytes) else { return nil }
        let hex = "0x" + String(byte, radix: 16, uppercase: true)
        return "it is not UTF-8 text (byte \(hex) at column \(column), as Latin-1 or Windows-1252 write an accented "
            + "letter); save it as UTF-8, as Apple writes it, or download it again"
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0 when none starts there.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        for length in 1...4 where index + length <= bytes.count {
            if String(validating: bytes[index..<index + length], as: UTF8.self) != nil { return length }
        }
        return 0
    }
}
