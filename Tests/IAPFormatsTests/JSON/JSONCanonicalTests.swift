import Testing

@testable import IAPFormats

@Suite struct JSONCanonicalTests {
    private func canonical(_ text: String) throws -> String {
        String(decoding: try JSONParser.parse(text).canonicalJSON(), as: UTF8.self)
    }

    @Test func sortsKeysAndDropsWhitespace() throws {
        let one = try canonical(#"{ "b" : 1, "a": { "z": [ 1 , 2 ], "y": null }, "é": true, "Z": false }"#)
        let two = try canonical("{\"Z\":false,\n\"é\":true,\"a\":{\"y\":null,\"z\":[1,2]},\r\n\"b\":1}")
        #expect(one == two)
        #expect(one == #"{"Z":false,"a":{"y":null,"z":[1,2]},"b":1,"é":true}"#)
    }

    @Test func minimalEscapingAndLiteralNumbers() throws {
        let text = try canonical(#"["a/b", "q\"\\", "\n\u001F\u007f", "\u00e9", 1.50, 1E+2, -0]"#)
        #expect(text == "[\"a/b\",\"q\\\"\\\\\",\"\\u000a\\u001f\u{7f}\",\"é\",1.50,1E+2,-0]")
    }

    @Test func keysSortByBytesNotByUnicodeCollation() throws {
        // "é" (C3 A9) sorts after "z" (7A) by bytes; "\u{1F600}" (F0…) after "\u{FFFD}" (EF…).
        let text = try canonical(#"{"😀": 1, "�": 2, "é": 3, "z": 4}"#)
        #expect(text == #"{"z":4,"é":3,"�":2,"😀":1}"#)
    }

    @Test func canonicalOutputParsesBackToTheSameValue() throws {
        let value = try JSONParser.parse(#"{"k":["\u0001",{"n":12345678901234567890123}],"e":{}}"#)
        #expect(try JSONParser.parse(value.canonicalJSON()) == value)
    }
}
