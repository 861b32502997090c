import Foundation
import IAPFormats

/// A team API key of the App Store Connect API (Users and Access → Integrations → App Store Connect API, a key with
/// the Finance role): a different key from the In-App Purchase key, with its own token rules. The token carries no
/// `bid` (the key is the team's, not one app's) and lives at most 20 minutes.
public struct AppStoreConnectKey: Sendable {
    public let keyId: String
    public let issuerId: String
    let key: ES256Key

    /// The App Store Connect API refuses a token whose `exp` is more than 20 minutes after its `iat`.
    public static let maximumLifetimeSeconds: Int64 = 20 * 60

    public init(keyId: String, issuerId: String, key: ES256Key) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.key = key
    }

    /// Reads the key file. The returned warning (nil when none) says when others may read it.
    public static func load(path: String, keyId: String, issuerId: String) throws(FetchError) -> (
        AppStoreConnectKey, warning: String?
    ) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .badConnectKey(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        let key: ES256Key
        do {
            key = try ES256Key(pem: text, path: path)
        } catch {
            throw .badConnectKey(path: path, reason: "it is not an ES256 private key in PEM")
        }
        var warning: String?
        if let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            permissions & 0o077 != 0
        {
            warning =
                "the App Store Connect API key \(path) can be read by other users (mode \(String(permissions, radix: 8))): chmod 600 it."
        }
        return (AppStoreConnectKey(keyId: keyId, issuerId: issuerId, key: key), warning)
    }

    /// A bearer token: header `alg` ES256, `kid`, `typ` JWT; claims `iss`, `iat`, `exp` (at most 20 minutes on),
    /// `aud` `appstoreconnect-v1`.
    public func token(issuedAt: Int64, lifetimeSeconds: Int64 = maximumLifetimeSeconds) throws(FetchError) -> String {
        let lifetime = min(lifetimeSeconds, Self.maximumLifetimeSeconds)
        let header = JSONValue.object(
            JSONObject([("alg", .string("ES256")), ("kid", .string(keyId)), ("typ", .string("JWT"))]))
        let claims = JSONValue.object(
            JSONObject([
                ("iss", .string(issuerId)), ("iat", .number(JSONNumber(issuedAt))),
                ("exp", .number(JSONNumber(issuedAt + lifetime))),
                ("aud", .string("appstoreconnect-v1")),
            ]))
        let signingInput = Base64Encoding.url(header.canonicalJSON()) + "." + Base64Encoding.url(claims.canonicalJSON())
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64Encoding.url(signature)
    }
}
