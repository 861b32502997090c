import Testing

@testable import IAPFormats

@Suite struct JSONParserTests {
    @Test func parsesAllValueKindsKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#" { "b": [1, -2.5e3, true, false, null], "a": {"x": "y"}, "c": "" } "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "c"])
        #expect(value["b"]?.arrayValue?.count == 5)
        #expect(value["b"]?.arrayValue?[0].int64Value == 1)
        #expect(value["b"]?.arrayValue?[1].numberValue?.double == -2500)
        #expect(value["b"]?.arrayValue?[2].boolValue == true)
        #expect(value["b"]?.arrayValue?[4].isNull == true)
        #expect(value["a"]?["x"]?.stringValue == "y")
        #expect(value["c"]?.stringValue == "")
        #expect(value["missing"] == nil)
    }

    @Test func decodesEscapesAndUnicode() throws {
        let value = try JSONParser.parse(
            #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "héllo €😀", "x\u0001y"]"#)
        let strings = try #require(value.arrayValue).compactMap(\.stringValue)
        #expect(strings == ["a\"b\\c/d\u{8}\u{c}\n\r\t", "é€😀", "héllo €😀", "x\u{1}y"])
    }

    /// Before: a NUL in a SKU or account ID was stored as U+FFFD, silently rewritten. After: the document is refused
    /// (quarantined as bad JSON with the reason), never stored rewritten.
    @Test func aNULCharacterIsRefusedWithItsReason() {
        #expect {
            try JSONParser.parse(#"{"productId":"gems\u0000.100"}"#)
        } throws: { error in
            "\(error)".contains("NUL")
        }
    }

    /// The string scan skips 16 then 8 bytes at a time: a character that needs a look must stop it wherever it
    /// falls in a block, and the end of a block must never hide the closing quote.
    @Test func everySpecialCharacterIsSeenAtEveryOffset() throws {
        for length in 0...70 {
            let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            #expect(try JSONParser.parse("\"\(plain)\"").stringValue == plain, "plain, \(length)")
            guard length > 0 else { continue }
            for offset in 0..<length {
                let head = String(plain.prefix(offset)), tail = String(plain.dropFirst(offset + 1))
                #expect(
                    try JSONParser.parse("\"\(head)\\n\(tail)\"").stringValue == head + "\n" + tail,
                    "escape at \(offset)")
                #expect(
                    try JSONParser.parse("\"\(head)é€\(tail)\"").stringValue == head + "é€" + tail, "UTF-8 at \(offset)"
                )
                #expect(throws: JSONParseError.self, "control character at \(offset)") {
                    try JSONParser.parse("\"\(head)\u{01}\(tail)\"")
                }
                var invalid = Array("\"\(plain)\"".utf8)
                invalid[offset + 1] = 0xFF
                #expect(throws: JSONParseError.self, "invalid UTF-8 at \(offset)") {
                    try JSONParser.parse(invalid)
                }
                #expect(
                    try JSONParser.parse("[\"\(head)\",\"\(tail)\"]").arrayValue?.compactMap(\.stringValue) == [
                        head, tail,
                    ])
            }
        }
    }

    @Test func largeObjectsUseIndexAndStillRejectDuplicates() throws {
        let members = (0..<50).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let value = try JSONParser.parse("{\(members)}")
        #expect(value["k37"]?.int64Value == 37)
        #expect(value.objectValue?.count == 50)
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{\(members), \"k3\": 1}") }
    }

    @Test func numbersKeepTheirLiteralText() throws {
        let huge = "123456789012345678901234567890123456789012345678901234567890"
        let value = try JSONParser.parse(
            "[\(huge), 1e400, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, -0]")
        let numbers = try #require(value.arrayValue).compactMap(\.numberValue)
        #expect(numbers[0].text == huge)
        #expect(numbers[0].int64 == nil)
        #expect(numbers[1].text == "1e400")
        #expect(numbers[1].double == nil)
        #expect(numbers[2].int64 == Int64.max)
        #expect(numbers[3].int64 == Int64.min)
        #expect(numbers[4].int64 == nil)
        #expect(numbers[5].int64 == nil)
        #expect(numbers[5].double == 1.0)
        #expect(numbers[6].int64 == 0)
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "12")?.int64 == 12)
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        #expect(error.offset == 64)
        #expect(error.message.contains("deeper than 64"))
        let deepObjects = String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deepObjects) }
        // A hostile depth far beyond the limit fails cleanly, without exhausting the stack.
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "[", count: 1_000_000)) }
    }

    @Test(
        arguments: [
            (#"{"a": 1, "a": 2}"#, 9, "appears twice"),
            (#"[1] x"#, 4, "trailing garbage"),
            (#"[01]"#, 1, "leading zeros"),
            (#"-01"#, 0, "leading zeros"),
            (#"["\ud800"]"#, 2, "high surrogate"),
            (#"["\udc00"]"#, 2, "low surrogate"),
            (#"["\ud800\u0041"]"#, 2, "high surrogate"),
            (#"["\x"]"#, 2, "invalid escape"),
            (#"["\u12G4"]"#, 2, "four hex digits"),
            ("[\"a\tb\"]", 3, "control character"),
            (#"[1,]"#, 3, "where a value was expected"),
            (#"{"a" 1}"#, 5, "expected ':'"),
            (#"{a: 1}"#, 1, "quoted key"),
            (#"[1 2]"#, 3, "expected ',' or ']'"),
            (#"tru"#, 0, "unknown literal"),
            (#"nul"#, 0, "unknown literal"),
            (#"1."#, 2, "decimal point"),
            (#"1e"#, 2, "exponent"),
            (#"-"#, 1, "minus sign"),
            (#"["abc"#, 1, "never closed"),
            ("", 0, "no JSON value"),
            ("   ", 3, "no JSON value"),
            ("[", 1, "ends where a value"),
            (#"{"a":1"#, 6, "ends inside an object"),
            ("\u{FEFF}{}", 0, "byte 0xEF"),
        ] as [(String, Int, String)])
    func rejectsWithOffsetAndSentence(input: String, offset: Int, fragment: String) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(input) }
        #expect(error.offset == offset, "\(error)")
        #expect(error.message.contains(fragment), "\(error)")
        #expect(error.description.hasPrefix("invalid JSON at byte \(offset): "))
    }

    @Test(
        arguments: [
            [0x22, 0xC3, 0x28, 0x22],  // bad continuation
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xFF, 0x22],
            [0x22, 0xE2, 0x82],  // truncated at end of input
        ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        #expect(error.offset == 1)
        #expect(error.message.contains("not valid UTF-8"))
    }

    @Test func rejectsLongNumbersAndStrings() throws {
        let sixtyFive = "1" + String(repeating: "0", count: 64)
        let numberError = try #require(throws: JSONParseError.self) { try JSONParser.parse("[\(sixtyFive)]") }
        #expect(numberError.message.contains("longer than 64"))
        #expect(throws: Never.self) { try JSONParser.parse(String(sixtyFive.dropLast())) }

        let string = "\"" + String(repeating: "a", count: 100) + "\""
        #expect(throws: Never.self) { try JSONParser.parse(string, maxStringBytes: 100) }
        let stringError = try #require(throws: JSONParseError.self) { try JSONParser.parse(string, maxStringBytes: 99) }
        #expect(stringError.message.contains("longer than the limit of 99 bytes"))
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse("\"\\n" + String(repeating: "a", count: 99) + "\"", maxStringBytes: 99)
        }
    }

    @Test func acceptsSlicesAndBuffers() throws {
        let bytes = Array(#"xx{"k": [1]}yy"#.utf8)
        let value = try JSONParser.parse(bytes[2..<12])
        #expect(value["k"]?.arrayValue == [.number(JSONNumber(1))])
        let fromBuffer = try bytes.withUnsafeBytes { raw throws(JSONParseError) in
            try JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[2..<12]))
        }
        #expect(fromBuffer == value)
    }

    @Test func objectEqualityIgnoresKeyOrder() throws {
        #expect(try JSONParser.parse(#"{"a":1,"b":[2]}"#) == JSONParser.parse(#"{"b":[2],"a":1}"#))
        #expect(try JSONParser.parse(#"{"a":1}"#) != JSONParser.parse(#"{"a":1.0}"#))
        var object = JSONObject([("x", .null)])
        object.updateValue(.bool(true), forKey: "x")
        object.updateValue(.string("s"), forKey: "y")
        #expect(object.keys == ["x", "y"])
        #expect(object["x"] == .bool(true))
    }
}
