internal import COpenSSL
import IAPFormats

/// SHA-256 of a JWS signing input, fed in pieces so `header.payload` is never concatenated.
enum SigningInputDigest {
    static func sha256(header: String, payload: String) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        guard let context = EVP_MD_CTX_new() else { return digest }
        defer { EVP_MD_CTX_free(context) }
        var length: UInt32 = 0
        let ok = EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
            && update(context, header) && update(context, ".") && update(context, payload)
            && EVP_DigestFinal_ex(context, &digest, &length) == 1
        // Allocation failure inside OpenSSL only: an all-zero digest then fails every signature check.
        if !ok { return [UInt8](repeating: 0, count: 32) }
        return digest
    }

    static func identity(digest: [UInt8], signatureSegment: String) -> String {
        FileDigest.sha256Hex(of: digest + Array(".".utf8) + Array(signatureSegment.utf8))
    }

    private static func update(_ context: OpaquePointer, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 }
    }
}
