import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSigning
import IAPTestSupport
import Testing

/// Each verification rule, dropped, must quarantine the notification with its own reason:
/// these fail if ingest stops checking any of them.
@Suite struct VerificationRuleTests {
    let app = AppFixture()

    func payload(uuid: String = "n-1") throws -> JSONValue {
        try app.notificationPayload(
            type: "DID_RENEW", uuid: uuid, signedDate: Day.at(1),
            transaction: app.transaction(id: "t1", purchase: Day.at(1), expires: Day.at(31), signedDate: Day.at(1)),
            renewal: app.renewal(original: "t1", signedDate: Day.at(1)))
    }

    func ingestOne(_ line: String) throws -> (reasons: [String], run: IngestRun) {
        let archive = try TestArchive()
        try archive.write("n.jsonl", lines: [line])
        let run = try IngestRun.ingest(archive)
        return (try run.reasons(), run)
    }

    @Test func validNotificationIsAccepted() throws {
        let result = try ingestOne(AppFixture.body(try app.sign(try payload())))
        #expect(result.reasons == [])
        #expect(try result.run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted'") == 1)
        #expect(try result.run.count("SELECT count(*) FROM transactions") == 1)
    }

    @Test func untrustedRootIsRejected() throws {
        let forged = JWSSigner(chain: TestChains.untrusted)
        #expect(
            try ingestOne(AppFixture.body(try app.sign(try payload(), with: forged))).reasons == ["untrusted_chain"])
    }

    @Test func twoCertificateChainIsRejected() throws {
        let chain = TestChains.trusted.x5c
        let jws = try app.signer.sign(
            payload: try payload().canonicalJSON(), header: JWSHeaderOverride(x5c: Array(chain.prefix(2))))
        #expect(try ingestOne(AppFixture.body(jws)).reasons == ["bad_certificate_chain"])
    }

    @Test func fourCertificateChainIsRejected() throws {
        let chain = TestChains.trusted.x5c
        let jws = try app.signer.sign(
            payload: try payload().canonicalJSON(), header: JWSHeaderOverride(x5c: chain + [chain[2]]))
        #expect(try ingestOne(AppFixture.body(jws)).reasons == ["bad_certificate_chain"])
    }

    @Test(arguments: ["leaf", "intermediate"])
    func missingAppleOIDIsRejected(_ which: String) throws {
        let chain = which == "leaf" ? TestChains.leafWithoutOID : TestChains.intermediateWithoutOID
        #expect(
            try ingestOne(AppFixture.body(try app.sign(try payload(), with: JWSSigner(chain: chain)))).reasons == [
                "missing_apple_oid"
            ])
    }

    @Test func leafExpiredAtSignedDateIsRejected() throws {
        // The leaf was valid only in 2020; the payload says it was signed in 2023.
        let jws = try app.sign(try payload(), with: JWSSigner(chain: TestChains.leafValidIn2020))
        #expect(try ingestOne(AppFixture.body(jws)).reasons == ["certificate_expired"])
    }

    @Test func tamperedPayloadIsRejected() throws {
        let parts = try app.sign(try payload()).split(separator: ".").map(String.init)
        let other = try app.sign(try payload(uuid: "n-2")).split(separator: ".").map(String.init)
        let jws = [parts[0], other[1], parts[2]].joined(separator: ".")
        #expect(try ingestOne(AppFixture.body(jws)).reasons == ["bad_signature"])
    }

    @Test func tamperedSignatureIsRejected() throws {
        var parts = try app.sign(try payload()).split(separator: ".").map(String.init)
        var signature = Array(parts[2].utf8)
        signature[10] = signature[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        parts[2] = String(decoding: signature, as: UTF8.self)
        #expect(try ingestOne(AppFixture.body(parts.joined(separator: "."))).reasons == ["bad_signature"])
    }

    @Test(arguments: ["HS256", "none", "ES384"])
    func algorithmOtherThanES256IsRejected(_ alg: String) throws {
        let jws = try app.signer.sign(payload: try payload().canonicalJSON(), header: JWSHeaderOverride(alg: alg))
        #expect(try ingestOne(AppFixture.body(jws)).reasons == ["unsupported_algorithm"])
    }

    @Test func wrongBundleIdIsRejected() throws {
        var other = app
        other.bundleId = "com.example.other"
        let line = try other.notification(type: "DID_RENEW", uuid: "n-1", signedDate: Day.at(1))
        #expect(try ingestOne(line).reasons == ["wrong_app"])
    }

    /// The notification is the app's, but the transaction it carries names another bundle ID: the whole notification
    /// is another app's as far as the store is concerned, and none of it is counted.
    @Test func aNestedTransactionOfAnotherAppQuarantinesTheNotification() throws {
        let foreign = app.transaction(
            id: "t1", purchase: Day.at(1), signedDate: Day.at(1), extra: ["bundleId": "com.example.other"])
        let line = try app.notification(type: "DID_RENEW", uuid: "n-1", signedDate: Day.at(1), transaction: foreign)
        let result = try ingestOne(line)
        #expect(result.reasons == ["wrong_app"])
        #expect(try result.run.count("SELECT count(*) FROM transactions") == 0)
        #expect(
            try result.run.strings("SELECT message FROM quarantine").first?.contains(
                "data.signedTransactionInfo is for bundle ID com.example.other") == true)
    }

    @Test func wrongAppAppleIdInProductionIsRejected() throws {
        var other = app
        other.appAppleId = 42
        let line = try other.notification(type: "DID_RENEW", uuid: "n-1", signedDate: Day.at(1))
        #expect(try ingestOne(line).reasons == ["wrong_app"])
    }

    @Test func otherEnvironmentIsStoredButNotAccepted() throws {
        var sandbox = app
        sandbox.environment = "Sandbox"
        let line = try sandbox.notification(
            type: "DID_RENEW", uuid: "n-1", signedDate: Day.at(1),
            transaction: sandbox.transaction(id: "t1", purchase: Day.at(1), signedDate: Day.at(1)))
        let result = try ingestOne(line)
        #expect(result.reasons == [])
        #expect(
            try result.run.count(
                "SELECT count(*) FROM documents WHERE outcome = 'other_environment' AND environment = 'Sandbox'") == 1)
        #expect(try result.run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted'") == 0)
    }

    @Test func nestedTransactionFromUntrustedChainQuarantinesTheWholeNotification() throws {
        let forgedTransaction = try app.sign(
            app.transaction(id: "t1", purchase: Day.at(1), signedDate: Day.at(1)),
            with: JWSSigner(chain: TestChains.untrusted))
        let payload = try app.notificationPayload(
            type: "REFUND", uuid: "n-1", signedDate: Day.at(1),
            data: ["signedTransactionInfo": .string(forgedTransaction)])
        let result = try ingestOne(AppFixture.body(try app.sign(payload)))
        #expect(result.reasons == ["untrusted_chain"])
        #expect(try result.run.count("SELECT count(*) FROM transactions") == 0)
        #expect(try result.run.count("SELECT count(*) FROM notifications") == 0)
    }

    @Test func noVerifyAcceptsForgeriesAndRecordsIt() throws {
        let archive = try TestArchive()
        try archive.write(
            "n.jsonl",
            lines: [AppFixture.body(try app.sign(try payload(), with: JWSSigner(chain: TestChains.untrusted)))])
        let run = try IngestRun.ingest(archive, verify: false)
        #expect(try run.reasons() == [])
        #expect(try run.count("SELECT count(*) FROM documents WHERE outcome = 'accepted' AND is_verified = 0") == 1)
    }
}
