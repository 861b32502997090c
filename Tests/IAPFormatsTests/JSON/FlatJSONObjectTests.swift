import Testing

@testable import IAPFormats

/// A payload read in place must be exactly what the parser makes of it, and anything outside the plain form must be
/// left to the parser (nil), never read differently.
@Suite struct FlatJSONObjectTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The flat reading of `text` and the parser's, which must agree member for member, in order.
    private func expectSameAsParser(_ text: String) throws {
        let flat = try #require(FlatJSONObject.parse(bytes(text)), "\(text) is of the plain form")
        let tree = try #require(try JSONParser.parse(bytes(text)).objectValue)
        let read = flat.jsonObject()
        #expect(read == tree, "\(text)")
        #expect(read.keys == tree.keys, "\(text)")
    }

    @Test func readsThePlainFormExactlyAsTheParserDoes() throws {
        for text in [
            "{}",
            " \t\r\n{ } \n",
            #"{"notificationType":"DID_RENEW","signedDate":1735689600000,"version":"2.0"}"#,
            #"{"a":-7,"b":0,"c":-0,"d":123456789012345678,"e":true,"f":false,"g":null,"h":""}"#,
            #"{"":"empty key","x":"printable ~!@#$%^&*()_+-={}[]|:;'<>,.?/ text"}"#,
            #"{"data":{"bundleId":"com.example","appAppleId":1234567890,"status":1},"after":"x"}"#,
            #"{"data":{},"summary":{"k":null}}"#,
            #"{ "spaced" : "out" , "too" : 1 }"#,
            "{\"jws\":\"" + String(repeating: "abcdefghijklmnopqrstuvwxyz-_.0123456789", count: 300) + "\"}",
        ] {
            try expectSameAsParser(text)
        }
    }

    @Test func leavesEverythingElseToTheParser() {
        for text in [
            #"{"a":"\n"}"#, #"{"a\"b":1}"#, #"{"é":1}"#, #"{"a":"é"}"#, "{\"a\":\"\u{1}\"}",
            #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":1E3}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":--1}"#,
            #"{"a":1234567890123456789}"#, #"{"a":[1]}"#, #"{"a":1,"a":2}"#, #"{"a":{"b":{"c":1}}}"#,
            #"{"a":1,}"#, #"{"a":1} x"#, #"[{"a":1}]"#, #""a""#, #"{"a" 1}"#, #"{"a":"x}"#, #"{"a":tru}"#,
            #"{"a":nul}"#, #"{"a":1"#, "\u{FEFF}{}", "", " ", #"{a:1}"#, #"{"a":1 "b":2}"#,
        ] {
            #expect(FlatJSONObject.parse(bytes(text)) == nil, "\(text)")
        }
    }

    @Test func leavesStringsOverTheLimitToTheParser() {
        #expect(FlatJSONObject.parse(bytes(#"{"a":"12345"}"#), maxStringBytes: 4) == nil)
        #expect(FlatJSONObject.parse(bytes(#"{"abcde":1}"#), maxStringBytes: 4) == nil)
        #expect(FlatJSONObject.parse(bytes(#"{"a":"1234"}"#), maxStringBytes: 4) != nil)
    }

    /// Thousands of documents built from plain and hostile pieces: whatever the flat reader accepts, the parser
    /// accepts too and reads the same; whatever the parser rejects, the flat reader leaves to it.
    @Test func agreesWithTheParserOnGeneratedDocuments() throws {
        let keys = [#""a""#, #""b""#, #""signedDate""#, #""""#, #""a""#, #""k\"""#, #""é""#]
        let values = [
            #""x""#, #""""#, "0", "-12", "1735689600000", "true", "false", "null", "1.5", "01", "[]", #""\u0041""#,
            #"{"n":1}"#, #"{"n":{"m":2}}"#, "{}", "tru", #""é""#, "1234567890123456789",
        ]
        let separators = [",", " , ", ",,", ""]
        // A fixed linear congruential sequence (Knuth's MMIX constants), so a failure names a document that can be
        // made again; its high bits are the ones used.
        var state: UInt64 = 31
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var flatCount = 0
        for _ in 0..<5_000 {
            var text = "{"
            let members = Int(next() % 5)
            for index in 0..<members {
                if index > 0 { text += separators[Int(next() % UInt64(separators.count))] }
                text += keys[Int(next() % UInt64(keys.count))] + ":"
                text += values[Int(next() % UInt64(values.count))]
            }
            text += next() % 20 == 0 ? "" : "}"
            let tree = try? JSONParser.parse(bytes(text))
            guard let flat = FlatJSONObject.parse(bytes(text)) else { continue }
            flatCount += 1
            let object = try #require(tree?.objectValue, "flat accepted what the parser rejects: \(text)")
            #expect(flat.jsonObject() == object, "\(text)")
            #expect(flat.jsonObject().keys == object.keys, "\(text)")
        }
        #expect(flatCount > 300, "the generator still makes plain documents")
    }

    /// The key filter only ever spares a scan: with few keys and with so many that every bit is set, each member is
    /// found wherever the search starts, a key that is not there is not, and a key twice is refused wherever it is.
    @Test func everyKeyIsFoundAndNoOtherWhateverTheFilterHolds() throws {
        for count in [1, 3, 30, 200] {
            let keys = (0..<count).map { "k\($0)" } + [""]
            let text = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
            let object = try #require(FlatJSONObject.parse(bytes(text)))
            for (position, key) in keys.enumerated() {
                for hint in [0, position, count / 2, count + 5] {
                    #expect(object.position(of: key, from: hint) == position, "\(key) in \(count) keys from \(hint)")
                }
            }
            for absent in ["k\(count)", "k", "K0", "k00", "x", " ", "k0 "] {
                #expect(object.position(of: absent, from: 0) == nil, "\(absent) in \(count) keys")
            }
            // The empty key, which has no bytes to compare, is found only where a member's key is empty too.
            let named = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
            let withoutEmpty = try #require(FlatJSONObject.parse(bytes(named)))
            #expect(withoutEmpty.position(of: "", from: 0) == nil, "the empty key in \(count) keys without it")
            for duplicate in [keys[0], keys[count / 2], keys[count - 1], ""] {
                #expect(
                    FlatJSONObject.parse(bytes(String(text.dropLast()) + ",\"\(duplicate)\":1}")) == nil,
                    "\(duplicate) twice")
            }
        }
    }
}
