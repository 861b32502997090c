/// String decoding: a fast path for escape-free spans (validated in place and turned into a `String` in one copy)
/// and a slower path, through a reused scratch buffer, for strings with escapes.
extension JSONScanner {
    /// Parses a string whose opening quote has been consumed; leaves `index` after the closing quote.
    mutating func parseStringBody() throws(JSONParseError) -> String {
        let start = index
        skipPlainASCII()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                try checkStringLength(start: start, end: index)
                let span = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return String(decoding: span, as: UTF8.self)
            }
            if byte == Byte.backslash { return try parseEscapedString(start: start) }
            if byte < 0x20 { throw controlCharacterFailure(byte) }
            if byte < 0x80 {
                index += 1
            } else {
                index += try validateUTF8Sequence(at: index)
            }
        }
        throw failure("a string starting here is never closed", at: start - 1)
    }

    /// Skips the run of bytes that need no look (``PlainASCII``); the byte loop takes over from there, so what is
    /// accepted and every error are unchanged.
    @inline(__always)
    private mutating func skipPlainASCII() {
        index = PlainASCII.end(of: bytes, from: index)
    }

    /// Continues a string at its first backslash, decoding escapes into `scratch`.
    private mutating func parseEscapedString(start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                try checkStringLength(start: start, end: index)
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == Byte.backslash {
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
                try decodeEscape()
                runStart = index
            } else if byte < 0x20 {
                throw controlCharacterFailure(byte)
            } else if byte < 0x80 {
                index += 1
            } else {
                index += try validateUTF8Sequence(at: index)
            }
        }
        throw failure("a string starting here is never closed", at: start - 1)
    }

    /// Decodes one escape at `index` (a backslash) into `scratch`.
    private mutating func decodeEscape() throws(JSONParseError) {
        let escapeStart = index
        guard index + 1 < bytes.count else { throw failure("the input ends inside an escape sequence") }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case Byte.quote, Byte.backslash, Byte.slash: scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeStart: escapeStart)
            // No value Apple sends holds U+0000, and neither store keeps it as written (PostgreSQL text cannot): a
            // document with one is refused here, never stored rewritten.
            if unit == 0 {
                throw failure(
                    "the escape \\u0000 puts a NUL character in a string, which no App Store value holds",
                    at: escapeStart)
            }
            var scalarValue = UInt32(unit)
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw failure(
                    "the escape \\u\(hex4(unit)) is a low surrogate without a preceding high surrogate", at: escapeStart
                )
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard index + 1 < bytes.count, bytes[index] == Byte.backslash, bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw failure(
                        "the escape \\u\(hex4(unit)) is a high surrogate not followed by a low surrogate",
                        at: escapeStart)
                }
                let lowStart = index
                index += 2
                let low = try readHex4(escapeStart: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw failure(
                        "the escape \\u\(hex4(unit)) is a high surrogate not followed by a low surrogate",
                        at: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            appendUTF8(scalarValue)
        default:
            throw failure("invalid escape sequence \\\(describeEscapeLetter(letter)) in a string", at: escapeStart)
        }
    }

    private mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits", at: escapeStart) }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case Byte.zero...Byte.nine: digit = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }

    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case ..<0x80:
            scratch.append(UInt8(value))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | (value >> 6)))
            scratch.append(UInt8(0x80 | (value & 0x3F)))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | (value >> 12)))
            scratch.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (value & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (value >> 18)))
            scratch.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// Validates the multi-byte UTF-8 sequence starting at `position` and returns its length.
    /// Rejects overlong forms, UTF-16 surrogates (ED A0–BF) and code points above U+10FFFF, per RFC 3629.
    func validateUTF8Sequence(at position: Int) throws(JSONParseError) -> Int {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw invalidUTF8(at: position)
        }
        guard position + length <= bytes.count, secondRange.contains(bytes[position + 1]) else {
            throw invalidUTF8(at: position)
        }
        for offset in 2..<max(length, 2) where bytes[position + offset] & 0xC0 != 0x80 {
            throw invalidUTF8(at: position)
        }
        return length
    }

    private func invalidUTF8(at position: Int) -> JSONParseError {
        failure(
            "the text is not valid UTF-8 (\(describeByte(at: position)) cannot start or continue a character here)",
            at: position)
    }

    private func checkStringLength(start: Int, end: Int) throws(JSONParseError) {
        guard end - start <= maxStringBytes else {
            throw failure("a string is longer than the limit of \(maxStringBytes) bytes", at: start - 1)
        }
    }

    private func controlCharacterFailure(_ byte: UInt8) -> JSONParseError {
        failure("control character \(describeByte(at: index)) must be escaped inside a string")
    }

    private func describeEscapeLetter(_ letter: UInt8) -> String {
        letter >= 0x21 && letter < 0x7F
            ? String(Character(Unicode.Scalar(letter))) : "(byte 0x\(String(letter, radix: 16)))"
    }

    private func hex4(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }
}
