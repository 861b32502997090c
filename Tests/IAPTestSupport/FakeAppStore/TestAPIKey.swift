internal import COpenSSL
import Foundation
import IAPFetch

/// A fresh In-App Purchase API key for the fetch tests, in the form App Store Connect hands out: a P-256 private
/// key as PKCS#8 PEM in `AuthKey_<keyId>.p8`.
public struct TestAPIKey: Sendable {
    public let keyId: String
    public let issuerId: String
    public let path: String
    public let pem: String

    /// Generates a key and writes it, mode 600, into `folder`; `curve` other than Apple's P-256 makes a key that
    /// `ES256Key` must refuse.
    public init(
        folder: String, keyId: String = "2X9R4HXF34", issuerId: String = "57246542-96fe-1a63-e053-0824d011072a",
        curve: String = "P-256"
    ) throws {
        self.keyId = keyId
        self.issuerId = issuerId
        pem = try Self.generatePEM(curve: curve)
        path = (folder as NSString).appendingPathComponent("AuthKey_\(keyId).p8")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(pem.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    /// The key as the fake server holds it, to check signatures.
    public func key() throws -> ES256Key { try ES256Key(pem: pem, path: path) }

    struct GenerationFailed: Error {}

    private static func generatePEM(curve: String) throws -> String {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw GenerationFailed() }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, curve) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw GenerationFailed() }
        defer { EVP_PKEY_free(key) }
        guard let bio = BIO_new(BIO_s_mem()) else { throw GenerationFailed() }
        defer { BIO_free(bio) }
        // PEM_write_bio_PrivateKey writes PKCS#8 ("BEGIN PRIVATE KEY"), the .p8 form.
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { throw GenerationFailed() }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = iaplens_bio_get_mem_data(bio, &pointer)
        guard length > 0, let pointer else { throw GenerationFailed() }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(length)), as: UTF8.self)
    }
}
