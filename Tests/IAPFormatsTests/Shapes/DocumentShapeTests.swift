import Testing

@testable import IAPFormats

@Suite struct DocumentShapeTests {
    private func recognise(_ text: String) -> Result<RecognisedDocument, FormatFailure> {
        DocumentShape.recognise(Array(text.utf8))
    }

    private func body(_ text: String) throws -> DocumentBody {
        try recognise(text).get().body
    }

    private func failure(_ text: String) throws -> FormatFailure {
        guard case .failure(let failure) = recognise(text) else {
            Issue.record("expected a failure for \(text)")
            throw FormatFailure(reason: .badJSON, message: "unexpected success")
        }
        return failure
    }

    @Test func v2Notification() throws {
        #expect(try body(#"{"signedPayload":"a.b.c","sendAttempts":[]}"#) == .v2Notification(signedPayload: "a.b.c"))
    }

    @Test func notificationHistoryPageWithMalformedEntries() throws {
        let page = try body(
            #"""
            {"notificationHistory": [
                {"signedPayload": "j1", "sendAttempts": [{"attemptDate": 1, "sendAttemptResult": "SUCCESS"}]},
                {"sendAttempts": []},
                {"signedPayload": 5},
                "x",
                {"signedPayload": "j2", "firstSendAttemptResult": "TIMED_OUT"}
            ], "paginationToken": "tok", "hasMore": true}
            """#)
        guard case .notificationHistoryPage(let entries, let token, let hasMore) = page else {
            Issue.record("wrong body \(page)")
            return
        }
        #expect(token == "tok")
        #expect(hasMore == true)
        #expect(entries.count == 5)
        #expect(entries[0] == .jws("j1"))
        #expect(entries[1] == .malformed("entry 2 of notificationHistory has no signedPayload"))
        #expect(entries[2] == .malformed("signedPayload of entry 3 of notificationHistory is a number, not a string"))
        #expect(entries[3] == .malformed("entry 4 of notificationHistory is a string, not an object"))
        #expect(entries[4] == .jws("j2"))
    }

    @Test func v1NotificationsCurrentAndLegacy() throws {
        let current = try body(#"{"notification_type":"DID_RENEW","unified_receipt":{"status":0},"password":"x"}"#)
        guard case .v1Notification(let object) = current else {
            Issue.record("wrong body \(current)")
            return
        }
        #expect(object.keys == ["notification_type", "unified_receipt", "password"])
        let legacy = try body(#"{"notification_type":"RENEWAL","latest_receipt_info":{"product_id":"p"}}"#)
        if case .v1Notification = legacy {} else { Issue.record("legacy V1 not recognised: \(legacy)") }
    }

    @Test func refundHistoryAndOlderLookup() throws {
        #expect(
            try body(#"{"signedTransactions":["t1",7],"revision":"r9","hasMore":false}"#)
                == .refundHistoryPage(
                    entries: [.jws("t1"), .malformed("entry 2 of signedTransactions is a number, not a JWS string")],
                    revision: "r9", hasMore: false))
        #expect(try body(#"{"signedTransactions":[]}"#) == .refundHistoryPage(entries: [], revision: nil, hasMore: nil))
        #expect(
            try body(
                #"{"revision":"r","bundleId":"com.example","environment":"Sandbox","hasMore":true,"signedTransactions":["t"]}"#
            )
                == .transactionHistoryPage(entries: [.jws("t")], revision: "r", hasMore: true))
    }

    @Test func orderLookupKeepsNumericOrderIdText() throws {
        #expect(
            try body(#"{"status":0,"signedTransactions":["t"],"orderId":"MQ7P1V2"}"#)
                == .orderLookup(orderId: "MQ7P1V2", status: 0, entries: [.jws("t")]))
        #expect(
            try body(#"{"orderId":12345678901234567890,"status":1,"signedTransactions":[]}"#)
                == .orderLookup(orderId: "12345678901234567890", status: 1, entries: []))
    }

    @Test func envelopeWithMillisecondsAndISOReceivedAt() throws {
        let millis = try recognise(#"{"receivedAt":1790000000123,"body":{"signedPayload":"x"}}"#).get()
        #expect(
            millis == RecognisedDocument(receivedAtMillis: 1_790_000_000_123, body: .v2Notification(signedPayload: "x"))
        )
        let iso = try recognise(#"{"body":{"signedTransactions":[]},"receivedAt":"2026-10-03T14:00:00.5+02:00"}"#).get()
        #expect(iso.receivedAtMillis == ISO8601Millis.parse("2026-10-03T12:00:00.500Z"))
        #expect(iso.body == .refundHistoryPage(entries: [], revision: nil, hasMore: nil))
        #expect(try recognise(#"{"signedPayload":"x"}"#).get().receivedAtMillis == nil)
        // The envelope is the archiver's: milliseconds with a fraction (a float in the archiver) are truncated, and
        // the time as a database or Python writes it is read.
        #expect(
            try recognise(#"{"receivedAt":1790000000123.987,"body":{"signedPayload":"x"}}"#).get().receivedAtMillis
                == 1_790_000_000_123)
        #expect(
            try recognise(#"{"receivedAt":"2026-10-03 14:00:00.5+02","body":{"signedPayload":"x"}}"#).get()
                .receivedAtMillis
                == ISO8601Millis.parse("2026-10-03T12:00:00.500Z"))
        for refused in ["1.79e12", "-1790000000123.5", "1790000000123."] {
            #expect(throws: (any Error).self, "\(refused)") {
                try recognise(#"{"receivedAt":"# + refused + #","body":{"signedPayload":"x"}}"#).get()
            }
        }
    }

    /// A time without a zone names no instant: refused, saying what to add.
    @Test func zonelessReceivedAtSaysWhatToAdd() throws {
        let failure = try failure(#"{"receivedAt":"2026-10-03T12:00:00","body":{"signedPayload":"x"}}"#)
        #expect(failure.reason == .badField)
        #expect(
            failure.message.contains("has no time zone, so it names no instant: write Z for UTC"), "\(failure.message)")
    }

    @Test func nestedEnvelopeIsUnknownShape() throws {
        let failure = try failure(#"{"receivedAt":1,"body":{"receivedAt":2,"body":{"signedPayload":"x"}}}"#)
        #expect(failure.reason == .unknownShape)
        #expect(failure.message.contains("envelope inside an envelope"))
    }

    @Test func unknownShapeListsUpToTenKeys() throws {
        let keys = (1...12).map { "\"k\($0)\":0" }.joined(separator: ",")
        let failure = try failure("{\(keys)}")
        #expect(failure.reason == .unknownShape)
        #expect(failure.message.contains(#""k1", "k2""#))
        #expect(failure.message.contains(#""k10" and 2 more"#))
        #expect(!failure.message.contains("\"k11\""))
        #expect(failure.message.contains("signedPayload"))
        #expect(try self.failure("[1]").reason == .unknownShape)
        #expect(try self.failure("{}").message.contains("empty object"))
    }

    /// Several documents exported as one JSON array: the message says to write one per line. An array of anything
    /// else is named without that hint.
    @Test func anArrayOfDocumentsSaysToWriteOnePerLine() throws {
        let list = try failure(#"[{"signedPayload":"a.b.c"},{"signedPayload":"d.e.f"}]"#)
        #expect(list.reason == .unknownShape)
        #expect(list.message.contains("write one per line in a .jsonl file"), "\(list.message)")
        #expect(!(try failure("[1, 2]").message.contains("one per line")))
    }

    @Test func badJSON() throws {
        let failure = try failure(#"{"signedPayload":"x","signedPayload":"y"}"#)
        #expect(failure.reason == .badJSON)
        #expect(failure.message.contains("appears twice"))
    }

    /// The first line of a pretty-printed document says what the file is and what to do; before, its three-line
    /// excerpt (`{`, `"signedPayload": …`, `}`) read as three unrelated syntax errors.
    @Test func aLineHoldingOnlyAnOpeningBracketSaysTheFileIsPrettyPrinted() throws {
        for (line, bracket) in [("{", "{"), ("  [ \r", "[")] {
            let failure = try failure(line)
            #expect(failure.reason == .badJSON)
            #expect(
                failure.message.contains("A line holding only \"\(bracket)\" starts a document written across lines"),
                "\(failure.message)")
            #expect(failure.message.contains("name a file that holds one document .json"))
        }
        #expect(try !failure("}").message.contains("written across lines"))
        #expect(try !failure("{\"a\":").message.contains("written across lines"))
    }

    /// A UTF-16 file says so and how to convert it; before, it read "unexpected byte 0xFF" (or 0x00 on every later
    /// line).
    @Test func utf16TextSaysItIsUTF16() throws {
        let document = #"{"signedPayload":"x"}"#
        let littleEndian: [UInt8] = [0xFF, 0xFE] + document.utf8.flatMap { [$0, 0] }
        let laterLine: [UInt8] = [0] + document.utf8.flatMap { [$0, 0] }
        for bytes in [littleEndian, laterLine] {
            guard case .failure(let failure) = DocumentShape.recognise(bytes) else {
                Issue.record("UTF-16 accepted")
                continue
            }
            #expect(failure.reason == .badJSON)
            #expect(failure.message.contains("looks like UTF-16 text"), "\(failure.message)")
        }
        #expect(try !failure("[1,").message.contains("UTF-16"))
    }

    @Test(
        arguments: [
            (#"{"signedPayload":42}"#, "\"signedPayload\""),
            (#"{"notificationHistory":{}}"#, "\"notificationHistory\""),
            (#"{"notificationHistory":[],"hasMore":"maybe"}"#, "\"hasMore\""),
            (#"{"notificationHistory":[],"paginationToken":3}"#, "\"paginationToken\""),
            (#"{"signedTransactions":"t"}"#, "\"signedTransactions\""),
            (#"{"signedTransactions":[],"status":2.5}"#, "\"status\" is 2.5"),
            (#"{"signedTransactions":[],"status":"0"}"#, "\"status\""),
            (#"{"signedTransactions":[],"status":0,"orderId":[1]}"#, "\"orderId\""),
            (#"{"signedTransactions":[],"revision":1}"#, "\"revision\""),
            (#"{"notification_type":1,"unified_receipt":{}}"#, "\"notification_type\""),
            (#"{"notification_type":"CANCEL","unified_receipt":[]}"#, "\"unified_receipt\""),
            (#"{"notification_type":"CANCEL"}"#, "\"unified_receipt\" is missing"),
            (#"{"receivedAt":"yesterday","body":{"signedPayload":"x"}}"#, "\"receivedAt\""),
            (#"{"receivedAt":1.5,"body":{"signedPayload":"x"}}"#, "\"receivedAt\""),
            (#"{"receivedAt":true,"body":{"signedPayload":"x"}}"#, "\"receivedAt\""),
            (#"{"receivedAt":1,"body":"x"}"#, "\"body\""),
            (#"{"receivedAt":1,"body":{"signedPayload":null}}"#, "\"body.signedPayload\""),
        ] as [(String, String)])
    func badFieldsNameTheKeyPath(document: String, fragment: String) throws {
        let failure = try failure(document)
        #expect(failure.reason == .badField, "\(failure)")
        #expect(failure.message.contains(fragment), "\(failure)")
    }

    @Test func hasMoreToleratesAbsenceNullAndStringBooleans() throws {
        #expect(
            try body(#"{"notificationHistory":[],"hasMore":null}"#)
                == .notificationHistoryPage(entries: [], paginationToken: nil, hasMore: nil))
        #expect(
            try body(#"{"signedTransactions":[],"hasMore":"true"}"#)
                == .refundHistoryPage(entries: [], revision: nil, hasMore: true))
    }
}
