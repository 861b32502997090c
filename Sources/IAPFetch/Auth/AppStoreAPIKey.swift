import Foundation
import IAPFormats

/// The In-App Purchase API key App Store Connect issues (Users and Access → Integrations → In-App Purchase): its
/// private key (`AuthKey_<keyId>.p8`), key ID and issuer ID, and the app it signs for.
public struct AppStoreAPIKey: Sendable {
    public let keyId: String
    public let issuerId: String
    public let bundleId: String
    let key: ES256Key

    public init(keyId: String, issuerId: String, bundleId: String, key: ES256Key) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.key = key
    }

    /// Reads the key file. The returned warning (nil when none) says when others may read it.
    public static func load(path: String, keyId: String, issuerId: String, bundleId: String) throws(FetchError) -> (
        AppStoreAPIKey, warning: String?
    ) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .badKey(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        let key = try ES256Key(pem: text, path: path)
        var warning: String?
        if let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            permissions & 0o077 != 0
        {
            warning =
                "the API key \(path) can be read by other users (mode \(String(permissions, radix: 8))): chmod 600 it."
        }
        return (AppStoreAPIKey(keyId: keyId, issuerId: issuerId, bundleId: bundleId, key: key), warning)
    }

    /// A bearer token as Apple documents it: header `alg` ES256, `kid`, `typ` JWT; claims `iss`, `iat`, `exp`,
    /// `aud` `appstoreconnect-v1`, `bid`. Apple refuses an `exp` more than 60 minutes after `iat`.
    public func token(issuedAt: Int64, lifetimeSeconds: Int64 = 20 * 60) throws(FetchError) -> String {
        let header = JSONValue.object(
            JSONObject([("alg", .string("ES256")), ("kid", .string(keyId)), ("typ", .string("JWT"))]))
        let claims = JSONValue.object(
            JSONObject([
                ("iss", .string(issuerId)), ("iat", .number(JSONNumber(issuedAt))),
                ("exp", .number(JSONNumber(issuedAt + lifetimeSeconds))),
                ("aud", .string("appstoreconnect-v1")), ("bid", .string(bundleId)),
            ]))
        let signingInput = Base64Encoding.url(header.canonicalJSON()) + "." + Base64Encoding.url(claims.canonicalJSON())
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64Encoding.url(signature)
    }
}
