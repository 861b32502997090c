import IAPFormats
import Testing

@testable import IAPModel

/// Ingest decodes Apple's payloads from a ``FlatJSONObject`` read in place; the same payload parsed into a tree must
/// give the same model, the same unknown fields in the same order, and the same error.
@Suite struct FieldReaderFlatTests {
    /// The outcome of decoding `text` one way, as text: the model, or the error's sentence.
    private func outcome<Model>(
        _ text: String, flat: Bool, _ decode: (FieldReader) throws(ModelDecodingError) -> Model
    ) throws -> String {
        let reader: FieldReader
        if flat {
            reader = FieldReader(try #require(FlatJSONObject.parse(Array(text.utf8)), "\(text) is of the plain form"))
        } else {
            reader = try FieldReader(value: try JSONParser.parse(text), path: "")
        }
        do {
            return "\(try decode(reader))"
        } catch {
            return "error: \(error)"
        }
    }

    private func expectSameBothWays<Model>(
        _ texts: [String], _ decode: (FieldReader) throws(ModelDecodingError) -> Model
    ) throws {
        for text in texts {
            #expect(try outcome(text, flat: true, decode) == outcome(text, flat: false, decode), "\(text)")
        }
    }

    @Test func transactionsDecodeTheSameFromEither() throws {
        try expectSameBothWays([
            #"{"transactionId":"2000001","originalTransactionId":"2000000","productId":"gems.100","type":"Consumable","purchaseDate":1735689600000,"price":9990,"currency":"EUR","quantity":1,"storefrontId":"143441","offerPeriod":"P1M","signedDate":1735689600001,"isUpgraded":false,"environment":"Production"}"#,
            #"{"transactionId":"1","price":"9.99"}"#,
            #"{"transactionId":"1","quantity":0}"#,
            #"{"transactionId":"1","revocationPercentage":100001}"#,
            #"{"transactionId":"1","purchaseDate":-1}"#,
            #"{"transactionId":"1","isUpgraded":1}"#,
            #"{"originalTransactionId":"1"}"#,
            #"{"transactionId":null,"price":null,"newField":null,"other":{"a":1,"b":null}}"#,
            #"{"transactionId":7}"#,
        ]) { reader throws(ModelDecodingError) in try JWSTransactionDecodedPayload(reader: reader) }
    }

    /// A flat object's integers are read from their digits, a tree's from the number's text: every integer reader
    /// gives the same value or the same error either way, at the edges of the flat form too.
    @Test func integersReadTheSameFromEither() throws {
        let texts = [
            "0", "-0", "7", "-7", "999999999999999999", "-999999999999999999", "1735689600000", "100001", "true",
            "\"5\"", "null",
        ]
        for text in texts {
            try expectSameBothWays([#"{"a":1,"n":"# + text + "}"]) { reader throws(ModelDecodingError) in
                [
                    String(describing: try reader.int64("n")), String(describing: try? reader.lenientInt64("n")),
                    String(describing: try? reader.count("n", in: 0...100_000, "a percentage")),
                    String(describing: try? reader.date("n")), "\(reader.unreadFields())",
                ]
            }
        }
    }

    @Test func renewalInfosDecodeTheSameFromEither() throws {
        try expectSameBothWays([
            #"{"originalTransactionId":"2000000","autoRenewStatus":1,"expirationIntent":2,"recentSubscriptionStartDate":1735689600000,"renewalDate":1738368000000,"isInBillingRetryPeriod":true}"#,
            #"{"originalTransactionId":"2000000","autoRenewStatus":"1"}"#,
            #"{"autoRenewStatus":1}"#,
        ]) { reader throws(ModelDecodingError) in try JWSRenewalInfoDecodedPayload(reader: reader) }
    }

    @Test func notificationsDecodeTheSameFromEither() throws {
        try expectSameBothWays([
            #"{"notificationType":"DID_RENEW","subtype":"BILLING_RECOVERY","notificationUUID":"u-1","data":{"appAppleId":1234567890,"bundleId":"com.example","bundleVersion":"42","environment":"Production","signedTransactionInfo":"a.b.c","signedRenewalInfo":"d.e.f","status":1},"version":"2.0","signedDate":1735689600000}"#,
            #"{"notificationType":"TEST","notificationUUID":"u-2","summary":{"bundleId":"com.example","appAppleId":1,"environment":"Sandbox","requestIdentifier":"r"},"signedDate":1735689600000}"#,
            #"{"notificationType":"DID_RENEW","notificationUUID":"u-3","data":"not an object","signedDate":1}"#,
            #"{"notificationType":"DID_RENEW","notificationUUID":"u-4","data":{"appAppleId":"1234567890"}}"#,
            #"{"notificationUUID":"u-5"}"#,
        ]) { reader throws(ModelDecodingError) in try ResponseBodyV2DecodedPayload(reader: reader) }
    }
}

/// A nested JWS read in place is the same text, counts as read, and its wrong types are the same errors.
@Suite struct FieldReaderInPlaceStringTests {
    @Test func inPlaceStringsReadAsStringsDo() throws {
        for text in [
            #"{"s":"a.b.c","t":1}"#, #"{"s":null}"#, #"{"t":1}"#, #"{"s":5}"#, #"{"s":{"a":1}}"#, #"{"s":true}"#,
        ] {
            let flat = FieldReader(try #require(FlatJSONObject.parse(Array(text.utf8))), path: "data")
            let tree = try FieldReader(value: try JSONParser.parse(text), path: "data")
            func read(_ reader: FieldReader) -> String {
                do { return String(describing: try reader.inPlaceString("s")?.string) } catch {
                    return "error: \(error)"
                }
            }
            #expect(read(flat) == read(tree), "\(text)")
            #expect(flat.unreadFields() == tree.unreadFields(), "\(text)")
            #expect(!flat.unreadFields().keys.contains("s"), "\(text)")
        }
    }
}
