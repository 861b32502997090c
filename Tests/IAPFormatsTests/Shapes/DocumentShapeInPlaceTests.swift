import Testing

@testable import IAPFormats

/// Ingest's in-place reading of the common V2 line answers for the lines it should, and wherever it answers, it
/// answers exactly what `DocumentShape.recognise` does; everything else is left to `recognise`.
@Suite struct DocumentShapeInPlaceTests {
    /// What `recognise` says the in-place answer stands for.
    private static func expected(_ line: SignedNotificationLine, in bytes: [UInt8]) -> RecognisedDocument {
        RecognisedDocument(
            receivedAtMillis: line.receivedAtMillis,
            body: .v2Notification(signedPayload: String(decoding: bytes[line.signedPayload], as: UTF8.self)))
    }

    /// Checks one line; returns whether it was read in place.
    @discardableResult
    private static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let bytes = Array(text.utf8)
        guard let line = DocumentShape.signedNotificationInPlace(bytes) else { return false }
        let recognised = DocumentShape.recognise(bytes)
        #expect(recognised == .success(expected(line, in: bytes)), "\(text)", sourceLocation: sourceLocation)
        return true
    }

    @Test func readsTheCommonLinesInPlace() {
        #expect(Self.check(#"{"signedPayload":"eyJh.eyJi.c2ln"}"#))
        #expect(Self.check(#"{"receivedAt":1700000000000,"body":{"signedPayload":"eyJh.eyJi.c2ln"}}"#))
        #expect(
            Self.check(#" { "body" : { "signedPayload" : "a.b.c" , "extra" : 5 } , "receivedAt" : 1700000000000 } "#))
        #expect(Self.check(#"{"signedPayload":"a.b.c","receivedAt":1700000000000}"#), "one of the two envelope keys")
        #expect(Self.check(#"{"signedPayload":"a.b.c","body":{"x":1}}"#), "the other one")
        #expect(Self.check(#"{"receivedAt":1700000000000,"body":{"signedPayload":"","note":null}}"#))
    }

    @Test func leavesEverythingElseToTheParser() {
        let others = [
            #"{"receivedAt":"2023-11-14T22:13:20Z","body":{"signedPayload":"a.b.c"}}"#,
            #"{"receivedAt":5,"body":{"signedPayload":"a.b.c"}}"#,
            #"{"receivedAt":99999999999999999,"body":{"signedPayload":"a.b.c"}}"#,
            #"{"receivedAt":1700000000000.5,"body":{"signedPayload":"a.b.c"}}"#,
            #"{"receivedAt":null,"body":{"signedPayload":"a.b.c"}}"#,
            #"{"receivedAt":1700000000000,"body":"a.b.c"}"#,
            #"{"receivedAt":1700000000000,"body":{"receivedAt":1,"body":{"signedPayload":"a.b.c"}}}"#,
            #"{"receivedAt":1700000000000,"body":{"signedPayload":5}}"#,
            #"{"signedPayload":"a\/b.c.d"}"#,
            #"{"signedPayload":"a.b.c","sendAttempts":[]}"#,
            #"{"signedPayload":"a.b.c","signedPayload":"d.e.f"}"#,
            #"{"notificationHistory":{},"signedPayload":"a.b.c"}"#,
            #"{"signedPayload":"a.b.c"} x"#,
            #"{"signedPayload":"é.b.c"}"#,
            #"{"notification_type":"DID_RENEW"}"#,
            #"{"signedTransactions":["a.b.c"]}"#,
            #"[{"signedPayload":"a.b.c"}]"#,
            #"{}"#,
        ]
        for text in others {
            #expect(!Self.check(text), "\(text) was read in place")
        }
    }

    /// Lines made of plain and hostile pieces: where the in-place reading answers, `recognise` agrees.
    @Test func agreesWithTheParserOnGeneratedLines() {
        let times = [
            "1700000000000", "-1", "0", "4102444799999", "4102444800000", "1199145599999", "\"2024-01-01T00:00:00Z\"",
            "null", "1e3",
        ]
        let payloads = ["\"a.b.c\"", "\"\"", "\"x\\\"y\"", "5", "null", "{}", "\"ab.c\""]
        let extras = [
            "", ",\"note\":1", ",\"body\":{}", ",\"receivedAt\":1", ",\"notificationHistory\":[]", ",\"k\":{\"k\":{}}",
        ]
        var readInPlace = 0
        for time in times {
            for payload in payloads {
                for extra in extras {
                    let bare = "{\"signedPayload\":\(payload)\(extra)}"
                    let wrapped = "{\"receivedAt\":\(time),\"body\":{\"signedPayload\":\(payload)\(extra)}}"
                    let inside = "{\"receivedAt\":\(time)\(extra),\"body\":{\"signedPayload\":\(payload)}}"
                    for line in [bare, wrapped, inside] where Self.check(line) { readInPlace += 1 }
                }
            }
        }
        #expect(readInPlace > 50)
    }
}
