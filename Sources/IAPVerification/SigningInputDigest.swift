internal import COpenSSL
import IAPFormats

/// SHA-256 of a JWS signing input, and the identity of a JWS derived from it.
enum SigningInputDigest {
    static func sha256(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(bytes.baseAddress, bytes.count, &digest)
        return digest
    }

    static func identity(digest: [UInt8], signatureSegment: String) -> String {
        FileDigest.sha256Hex(of: digest + Array(".".utf8) + Array(signatureSegment.utf8))
    }
}
