internal import COpenSSL
import Foundation

/// A root certificate the verifier trusts as the end of a path (Apple Root CA - G3 by default).
public struct TrustedRoot: Sendable {
    /// The certificate's DER bytes.
    public let der: [UInt8]
    /// Lower-case hex SHA-256 of the DER, the usual certificate fingerprint.
    public let sha256Hex: String
    let certificate: X509Certificate

    /// Parses one DER certificate, or throws if the bytes are not exactly one certificate.
    public init(der: [UInt8]) throws(VerificationConfigurationError) {
        try self.init(der: der, source: "DER bytes")
    }

    init(der: [UInt8], source: String) throws(VerificationConfigurationError) {
        guard let certificate = X509Certificate(der: der) else { throw .unparsableCertificate(source: source) }
        self.der = der
        self.certificate = certificate
        self.sha256Hex = Self.sha256Hex(der)
    }

    /// Apple Root CA - G3, embedded so production data verifies without any file.
    public static var appleRootCAG3: TrustedRoot {
        get throws(VerificationConfigurationError) {
            try TrustedRoot(der: AppleRootCAG3.der, source: "the embedded Apple Root CA - G3")
        }
    }

    /// Loads every certificate of a file: PEM (one or more `CERTIFICATE` blocks) or a single DER certificate,
    /// told apart by content rather than by file extension.
    public static func load(fromFile path: String) throws(VerificationConfigurationError) -> [TrustedRoot] {
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, detail: error.localizedDescription)
        }
        let bytes = [UInt8](contents)
        let pemMarker = Array("-----BEGIN CERTIFICATE-----".utf8)
        guard bytes.firstRange(of: pemMarker) != nil else {
            guard X509Certificate(der: bytes) != nil else { throw .noCertificate(path: path) }
            return [try TrustedRoot(der: bytes, source: path)]
        }
        let roots = try pemCertificates(bytes, path: path)
        guard !roots.isEmpty else { throw .noCertificate(path: path) }
        return roots
    }

    private static func pemCertificates(_ bytes: [UInt8], path: String) throws(VerificationConfigurationError)
        -> [TrustedRoot]
    {
        let ders: [[UInt8]] = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return [] }
            defer { BIO_free(bio) }
            var found: [[UInt8]] = []
            while let cert = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(cert) }
                var output: UnsafeMutablePointer<UInt8>?
                let length = i2d_X509(cert, &output)
                guard length > 0, let output else { continue }
                found.append(Array(UnsafeBufferPointer(start: output, count: Int(length))))
                CRYPTO_free(output, #fileID, #line)
            }
            // The loop ends on "no start line" once the file is exhausted; that is not an error.
            ERR_clear_error()
            return found
        }
        var roots: [TrustedRoot] = []
        for (index, der) in ders.enumerated() {
            roots.append(try TrustedRoot(der: der, source: "\(path) (certificate \(index + 1))"))
        }
        return roots
    }

    private static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { _ = SHA256($0.baseAddress, $0.count, &digest) }
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(digest.count * 2)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
