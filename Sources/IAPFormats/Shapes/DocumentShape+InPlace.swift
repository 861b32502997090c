/// The shape nearly every archive line has, recognised without parsing the line into a tree.
public struct SignedNotificationLine: Sendable, Equatable {
    /// `receivedAt` of the envelope in milliseconds since the epoch; nil for a bare body.
    public let receivedAtMillis: Int64?
    /// Where the `signedPayload` JWS lies in the line's bytes.
    public let signedPayload: Range<Int>
}

extension DocumentShape {
    /// A V2 notification line, bare (`{"signedPayload"}`) or in an envelope (`{"receivedAt": <ms>, "body":
    /// {"signedPayload"}}`), read in place (``FlatJSONObject``) so that its JWS, about 10 KB, is never copied into a
    /// `String` (Documentation/Performance.md, "AVX2 text kernels").
    ///
    /// Nil whenever the line is anything else, or anything ``recognise(_:)-([UInt8])`` would refuse or word itself
    /// (another shape, a string `receivedAt`, a time out of range, JSON outside the plain form): the caller then
    /// calls that, which stays the one definition of every shape and every failure. So where this answers, it
    /// answers exactly what ``recognise(_:)-([UInt8])`` would.
    public static func signedNotificationInPlace(_ bytes: [UInt8]) -> SignedNotificationLine? {
        // Off under `IAPLENS_REFERENCE=in-place-json`: every line is then read by ``recognise(_:)-([UInt8])``.
        guard FastPath.inPlaceJSON.isEnabled, let top = FlatJSONObject.parse(bytes) else { return nil }
        let receivedAt = top.position(of: "receivedAt", from: 0)
        let bodyPosition = top.position(of: "body", from: 0)
        guard let receivedAt, let bodyPosition else {
            // Not an envelope: the line is the body.
            return signedPayload(in: top).map { SignedNotificationLine(receivedAtMillis: nil, signedPayload: $0) }
        }
        guard let millis = top.int64(at: receivedAt), AppStoreBounds.date.contains(millis),
            let body = top.object(at: bodyPosition),
            body.position(of: "receivedAt", from: 0) == nil || body.position(of: "body", from: 0) == nil,
            let range = signedPayload(in: body)
        else { return nil }
        return SignedNotificationLine(receivedAtMillis: millis, signedPayload: range)
    }

    /// The `signedPayload` string of a body that ``recogniseBody(_:path:)`` reads as a V2 notification: it checks
    /// `notificationHistory` first.
    private static func signedPayload(in body: FlatJSONObject) -> Range<Int>? {
        guard body.position(of: "notificationHistory", from: 0) == nil,
            let position = body.position(of: "signedPayload", from: 0)
        else { return nil }
        return body.stringRange(at: position)
    }
}
