/// Recognises a document's kind by its shape, not by the file it came from (Documentation/Inputs.md "Documents").
public enum DocumentShape {
    /// A one-line summary of the accepted shapes, used in `unknown_shape` messages.
    public static let acceptedShapes = """
        accepted shapes are {"signedPayload"} (V2 notification), {"notificationHistory": […]} (notification history page), \
        {"notification_type", "unified_receipt"} (V1 notification), {"signedTransactions": […]} (refund history page), \
        {"status", "signedTransactions"} (order lookup), each optionally wrapped as {"receivedAt", "body"}
        """

    /// Parses the bytes as JSON and recognises the document.
    ///
    /// An envelope `{"receivedAt": <ms number or ISO 8601 string>, "body": {…}}` is unwrapped; an envelope inside an
    /// envelope is `unknown_shape`. Failures: ``FormatFailureReason/badJSON`` (not strict JSON),
    /// ``FormatFailureReason/unknownShape`` (valid JSON of no known shape; the message lists up to 10 top-level keys),
    /// ``FormatFailureReason/badField`` (known shape, required field of the wrong type; the message names its key path).
    /// Problems with single entries of a page are ``PageEntry/malformed(_:)`` entries, not failures.
    public static func recognise(_ bytes: [UInt8]) -> Result<RecognisedDocument, FormatFailure> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            var message = "The document is not valid JSON: \(error.description)."
            if UTF16Detection.looksLikeUTF16(bytes) {
                message +=
                    " The line looks like UTF-16 text (a UTF-16 byte-order mark, or NUL bytes between"
                    + " characters): documents are UTF-8; convert the file, e.g. with iconv -f UTF-16 -t UTF-8."
            } else if isOpeningBracketAlone(bytes) {
                message +=
                    " A line holding only \"\(bytes.contains(UInt8(ascii: "[")) ? "[" : "{")\""
                    + " starts a document written across lines (pretty-printed): a .jsonl or .ndjson file holds one"
                    + " document per line, so write each on one line, or name a file that holds one document .json."
            }
            return .failure(FormatFailure(reason: .badJSON, message: message))
        }
        return recognise(value)
    }

    /// True when `bytes`, spaces aside, are one `{` or `[`: the first line of a pretty-printed document.
    static func isOpeningBracketAlone(_ bytes: [UInt8]) -> Bool {
        let content = bytes.filter { ![0x20, 0x09, 0x0D, 0x0A].contains($0) }
        return content == [UInt8(ascii: "{")] || content == [UInt8(ascii: "[")]
    }

    /// Recognises an already parsed document. See ``recognise(_:)-([UInt8])``.
    public static func recognise(_ value: JSONValue) -> Result<RecognisedDocument, FormatFailure> {
        guard let object = value.objectValue else {
            // An export of several documents as one JSON array is common; say how to make it one document per line.
            let listHint =
                value.arrayValue?.contains { $0.objectValue != nil } == true
                ? " If the array lists documents, write one per line in a .jsonl file instead (e.g. `jq -c '.[]' FILE.json > FILE.jsonl`)."
                : ""
            return .failure(
                unknownShape(
                    "The document is \(value.typeDescription), not a JSON object; \(acceptedShapes).\(listHint)"))
        }
        do throws(FormatFailure) {
            guard isEnvelope(object) else {
                return .success(RecognisedDocument(receivedAtMillis: nil, body: try recogniseBody(object, path: "")))
            }
            let receivedAt = try receivedAtValue(object["receivedAt"])
            guard let body = object["body"]?.objectValue else {
                throw badField(
                    "body", "is \(object["body"]?.typeDescription ?? "missing"); expected the document object")
            }
            if isEnvelope(body) {
                throw unknownShape(
                    "The document is an envelope inside an envelope ({\"receivedAt\", \"body\"} nested); only one level is accepted."
                )
            }
            let recognised = try recogniseBody(body, path: "body.")
            // The shape first, then the time's range: a broken body is named before an odd time.
            return .success(RecognisedDocument(receivedAtMillis: try boundedReceivedAt(receivedAt), body: recognised))
        } catch {
            return .failure(error)
        }
    }

    private static func isEnvelope(_ object: JSONObject) -> Bool {
        object["receivedAt"] != nil && object["body"] != nil
    }

    /// The envelope's time, inside ``AppStoreBounds/date`` (an archive received App Store documents, so its time is
    /// an App Store time).
    private static func boundedReceivedAt(_ millis: Int64) throws(FormatFailure) -> Int64 {
        guard AppStoreBounds.date.contains(millis) else {
            throw badField(
                "receivedAt",
                "is \(ISO8601Millis.format(millis)), not a time an archive received App Store documents (\(AppStoreBounds.dateText))"
            )
        }
        return millis
    }

    private static func receivedAtValue(_ value: JSONValue?) throws(FormatFailure) -> Int64 {
        switch value {
        case .number(let number)?:
            guard let millis = number.int64 ?? wholeMillis(number.text) else {
                throw badField(
                    "receivedAt", "is \(number.text); expected milliseconds since 1970 or an ISO 8601 timestamp")
            }
            return millis
        case .string(let text)?:
            guard let millis = ISO8601Millis.parse(text) else {
                throw badField(
                    "receivedAt",
                    "is \"\(text.prefix(60))\", which "
                        + (ISO8601Millis.lacksOnlyAZone(text)
                            ? "has no time zone, so it names no instant: write Z for UTC (2026-10-03T12:00:00Z) or an offset (+02:00)"
                            : "is not an ISO 8601 timestamp such as 2026-10-03T12:00:00Z"))
            }
            return millis
        default:
            throw badField(
                "receivedAt", "is \(value?.typeDescription ?? "missing"); expected milliseconds or an ISO 8601 string")
        }
    }

    /// `1751551200000.123` as 1751551200000: the envelope is the archiver's, not Apple's, and archivers that keep
    /// times as floating point write milliseconds with a fraction. Truncated, as every time in the reports is.
    /// Only the plain `digits.digits` spelling: an exponent or a sign is refused, as for Apple's own fields.
    private static func wholeMillis(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty,
            parts[1].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(parts[0]).flatMap { $0 >= 0 && parts[0].first != "-" ? $0 : nil }
    }

    // MARK: - Failures

    static func unknownShape(_ message: String) -> FormatFailure {
        FormatFailure(reason: .unknownShape, message: message)
    }

    static func unknownShape(keys: [String]) -> FormatFailure {
        let listed = keys.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
        let more = keys.count > 10 ? " and \(keys.count - 10) more" : ""
        let found = keys.isEmpty ? "it is an empty object" : "top-level keys: \(listed)\(more)"
        return unknownShape("The document matches no known shape (\(found)); \(acceptedShapes).")
    }

    static func badField(_ path: String, _ problem: String) -> FormatFailure {
        FormatFailure(reason: .badField, message: "Field \"\(path)\" \(problem).")
    }
}
