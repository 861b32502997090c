import Foundation
import IAPFormats
import IAPTestSigning
import IAPTestSupport

/// Building blocks for hostile documents: an app fixture for the simulated archive's app, raw JWS assembly.
enum Hostile {
    /// Signs for the simulated app with the trusted test chain (its root is trusted by ``SimulatedArchive``).
    static var app: AppFixture {
        var app = AppFixture()
        app.bundleId = SimulatedArchive.bundleId
        app.appAppleId = SimulatedArchive.appAppleId
        return app
    }

    /// 2022-03-15T12:00:00Z, inside the simulated archive's months.
    static let march: Int64 = 1_647_345_600_000

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    static func base64url(_ text: String) -> String { base64url(Array(text.utf8)) }

    /// A webhook body whose `signedPayload` is the given text, escaped as JSON.
    static func body(_ signedPayload: String) -> String { AppFixture.body(signedPayload) }

    /// A transaction that, if it were ever accepted, would add a sale (and so move a figure).
    static func newSale(_ id: String, price: Int64 = 7_990, extra: [String: JSONValue?] = [:]) -> JSONValue {
        app.transaction(
            id: id, product: "com.example.iaplens.demo.coins500", type: "Consumable", purchase: march,
            price: price, signedDate: march, extra: extra)
    }

    /// A V2 notification payload carrying ``newSale(_:price:extra:)``.
    static func saleNotification(_ uuid: String, transaction: JSONValue? = nil) throws -> JSONValue {
        try app.notificationPayload(
            type: "ONE_TIME_CHARGE", uuid: uuid, signedDate: march,
            transaction: transaction ?? newSale("hostile-\(uuid)"))
    }

    /// Signs raw payload bytes (not necessarily valid JSON) with the trusted chain.
    static func signRaw(
        _ payload: String, header: JWSHeaderOverride = JWSHeaderOverride(), with signer: JWSSigner = TestChains.signer
    ) throws -> String {
        try signer.sign(payload: Array(payload.utf8), header: header)
    }

    static func sign(
        _ payload: JSONValue, header: JWSHeaderOverride = JWSHeaderOverride(),
        with signer: JWSSigner = TestChains.signer
    ) throws -> String {
        try signer.sign(payload: payload.canonicalJSON(), header: header)
    }
}
