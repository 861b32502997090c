import Foundation

/// What stops a fetch, each said as a sentence that names what to check.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case badKey(path: String, reason: String)
    case missingOption(String)
    case crypto(String)
    /// 401 / 403: the key, its ID, the issuer or the bundle ID is not what Apple expects.
    case unauthorized(status: Int, keyId: String, issuerId: String, bundleId: String)
    /// Another 4xx: the request itself is wrong.
    case rejected(status: Int, request: String, body: String)
    /// 429 / 5xx / a network failure that outlasted every retry.
    case gaveUp(request: String, attempts: Int, last: String)
    case badResponse(request: String, reason: String)
    case archive(path: String, reason: String)
    case readList(path: String, reason: String)

    public var description: String {
        switch self {
        case .badKey(let path, let reason):
            return "The API key \(path) cannot be used: \(reason). Download it again from App Store Connect (Users and Access → Integrations → In-App Purchase)."
        case .missingOption(let name):
            return "fetch needs --\(name) (or \"\(name)\" in the config file)."
        case .crypto(let operation):
            return "OpenSSL failed in \(operation) while signing the API token."
        case .unauthorized(let status, let keyId, let issuerId, let bundleId):
            return "Apple refused the API token (HTTP \(status)): check that key \(keyId) is an active In-App Purchase key of issuer \(issuerId), that the .p8 file is that key's, that \(bundleId) is the app's bundle ID, and that this machine's clock is right."
        case .rejected(let status, let request, let body):
            return "Apple rejected \(request) (HTTP \(status)): \(body.prefix(300))"
        case .gaveUp(let request, let attempts, let last):
            return "\(request) still failed after \(attempts) attempts (last: \(last)); nothing was lost, run fetch again later."
        case .badResponse(let request, let reason):
            return "\(request) answered something iaplens cannot read: \(reason)."
        case .archive(let path, let reason):
            return "Cannot write \(path): \(reason). Check that the archive folder is writable and the disk has room."
        case .readList(let path, let reason):
            return "Cannot read the ID list \(path): \(reason)."
        }
    }
}
