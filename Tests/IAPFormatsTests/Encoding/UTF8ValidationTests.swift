import IAPFormats
import Testing

/// Text in another encoding is found, where, and said in a sentence; UTF-8 of every length passes.
@Suite struct UTF8ValidationTests {
    @Test func validUTF8OfEveryLengthPasses() {
        for text in ["", "Americas (USD)", "Côte d'Ivoire", "日本 (JPY)", "🇪🇺 Euro-Zone", "\u{FEFF}Vendor Name"] {
            #expect(UTF8Validation.firstInvalidByte(Array(text.utf8)) == nil, "\(text)")
            #expect(UTF8Validation.problem(Array(text.utf8)) == nil)
        }
    }

    @Test func latin1IsFoundAtItsFirstForeignByte() throws {
        // "Côte é" in Latin-1: 0xF4 for ô is no UTF-8 lead byte followed by a continuation.
        let latin1: [UInt8] = Array("C".utf8) + [0xF4] + Array("te ".utf8) + [0xE9]
        let found = try #require(UTF8Validation.firstInvalidByte(latin1))
        #expect(found.column == 2 && found.byte == 0xF4)
        #expect(UTF8Validation.problem(latin1)?.contains("byte 0xF4 at column 2") == true)
        // After valid multi-byte letters, the column still counts bytes.
        let mixed = Array("日本".utf8) + [0x80]
        #expect(UTF8Validation.firstInvalidByte(mixed)?.column == 7)
        // A sequence cut short at the end of the line.
        #expect(UTF8Validation.firstInvalidByte(Array("ab".utf8) + [0xE6, 0x97])?.column == 3)
    }
}
