public import Foundation

/// A failure while generating a test PKI, loading one, or signing a JWS.
public enum SigningError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// An OpenSSL call failed; `detail` is OpenSSL's error queue.
    case openSSL(operation: String, detail: String)
    /// A validity window is empty or reversed.
    case invalidValidity(notBeforeMillis: Int64, notAfterMillis: Int64)
    /// A chain file could not be read or written.
    case file(path: String, detail: String)
    /// A chain file holds something other than what its name promises.
    case malformedFile(path: String, detail: String)
    /// The deterministic nonce produced an unusable signature (probability about 2^-128).
    case degenerateSignature

    /// One sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .openSSL(let operation, let detail):
            "OpenSSL failed in \(operation) (\(detail))."
        case .invalidValidity(let notBefore, let notAfter):
            "The validity window \(notBefore) ms to \(notAfter) ms is empty; notAfter must be later than notBefore."
        case .file(let path, let detail):
            "The test PKI file \(path) could not be accessed (\(detail)); check the directory exists and is writable."
        case .malformedFile(let path, let detail):
            "The test PKI file \(path) is malformed (\(detail)); regenerate the chain with TestCertificateChain.write."
        case .degenerateSignature:
            "The deterministic ECDSA nonce gave a zero signature component; sign a different payload."
        }
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
