public import Foundation

/// A misconfiguration found while setting up verification (trusted roots); thrown, since no run can proceed.
public enum VerificationConfigurationError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The verifier was given an empty list of trusted roots.
    case noTrustedRoots
    /// A root certificate file could not be read.
    case unreadableFile(path: String, detail: String)
    /// A file holds neither a PEM certificate nor a DER certificate.
    case noCertificate(path: String)
    /// Bytes given as a root certificate do not parse as one DER certificate.
    case unparsableCertificate(source: String)
    /// OpenSSL would not accept a root into its trust store.
    case unusableRoot(sha256Hex: String, detail: String)
    /// An OpenSSL call failed for reasons outside the input (usually memory).
    case openSSL(operation: String, detail: String)

    /// One sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .noTrustedRoots:
            "No trusted root certificate is configured; use Apple Root CA - G3 or pass --root-certificate FILE."
        case .unreadableFile(let path, let detail):
            "The root certificate file \(path) could not be read (\(detail)); check the --root-certificate path."
        case .noCertificate(let path):
            "The file \(path) holds no PEM or DER certificate; pass a root certificate exported as .pem, .cer or .der."
        case .unparsableCertificate(let source):
            "The root certificate from \(source) is not a valid DER X.509 certificate."
        case .unusableRoot(let sha256Hex, let detail):
            "OpenSSL rejected the root certificate with SHA-256 \(sha256Hex) (\(detail)); pass a different root."
        case .openSSL(let operation, let detail):
            "OpenSSL failed in \(operation) (\(detail)); the machine may be out of memory."
        }
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
