import Foundation

/// What stops a fetch, each said as a sentence that names what to check.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case badKey(path: String, reason: String)
    /// Options a fetch needs and was not given, every one of them (a first setup learns them all at once).
    case missingOptions([String])
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
    /// An ID that is not one Apple issues (a transaction ID of other than digits, `.` or `..`): never put in a URL.
    case invalidIdentifier(kind: String, value: String)
    /// A request that acts got no answer (a lost connection, a timeout): it may have reached Apple, so it is not
    /// sent again.
    case noAnswer(request: String, last: String)
    /// A 3xx: Apple's APIs never redirect, so the answer is not Apple's.
    case redirected(request: String, status: Int)
    /// An answer over the size limit (not asked for again: it would be downloaded again).
    case tooLarge(request: String, limit: Int)
    /// Pagination that does not end: the same cursor again, or more pages than any real history has.
    case endlessPagination(request: String, reason: String)
    /// The fetch ran longer than its time limit; what it fetched is saved and the next fetch continues.
    case outOfTime(limit: String)
    /// The App Store Connect API key (financial reports) cannot be used.
    case badConnectKey(path: String, reason: String)
    /// 401 / 403 from the App Store Connect API.
    case connectUnauthorized(status: Int, keyId: String, issuerId: String, detail: String)
    /// Another 4xx from the App Store Connect API, with its `errors[0]` code and detail.
    case connectRejected(status: Int, request: String, code: String, detail: String)

    /// Apple or the network failed, or the fetch ran out of its time: a later run asks again (exit 75). `run` then
    /// goes on with what the archive holds, as it does when a consumption answer cannot be sent.
    public var isTemporary: Bool {
        switch self {
        case .gaveUp, .redirected, .outOfTime: true
        default: false
        }
    }

    /// A server's text as one line: control characters escaped (a body cannot forge log lines), at most 300
    /// characters.
    static func quoted(_ body: String) -> String {
        var text = ""
        for scalar in body.unicodeScalars.prefix(300) {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                    || scalar == "\u{2028}" || scalar == "\u{2029}"
                {
                    text += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    public var description: String {
        switch self {
        case .badKey(let path, let reason):
            return
                "The API key \(path) cannot be used: \(reason). Download it again from App Store Connect (Users and Access → Integrations → In-App Purchase)."
        case .missingOptions(let names):
            let listed = Self.listed(names.map { "--" + $0 })
            let inConfig = Self.listed(names.map { "\"\($0)\"" })
            let inEnvironment = Self.listed(
                names.map { "IAPLENS_" + $0.uppercased().replacingOccurrences(of: "-", with: "_") })
            return names.count == 1
                ? "\(listed) is missing: give it on the command line, as \(inConfig) in the config file, or as \(inEnvironment)."
                : "\(listed) are missing: give each on the command line, as \(inConfig) in the config file, or as \(inEnvironment)."
        case .crypto(let operation):
            return "OpenSSL failed in \(operation) while signing the API token."
        case .unauthorized(let status, let keyId, let issuerId, let bundleId):
            return
                "Apple refused the API token (HTTP \(status)): check that key \(keyId) is an active In-App Purchase key of issuer \(issuerId), that the .p8 file is that key's, that \(bundleId) is the app's bundle ID, and that this machine's clock is right."
        case .rejected(let status, let request, let body):
            return "Apple rejected \(request) (HTTP \(status)): \(Self.quoted(body))"
        case .gaveUp(let request, let attempts, let last):
            return
                "\(request) still failed after \(attempts) attempts (last: \(last)); nothing was lost, run fetch again later."
        case .noAnswer(let request, let last):
            return
                "\(request) got no answer (\(Self.quoted(last))): it may have reached Apple, so it is not sent again."
        case .redirected(let request, let status):
            return
                "\(request) was answered with a redirect (HTTP \(status)). Apple's API never redirects, so the answer came from something in between (a proxy, a captive portal) or --api-url is not Apple's: nothing was saved or sent, and the cursor did not move. Check the network and the URL, then run fetch again."
        case .tooLarge(let request, let limit):
            return
                "\(request) answered more than \(limit >> 20) MiB, far more than any answer of Apple's: it was not saved (and not held in memory past the limit). Check that --api-url is Apple's; the next fetch asks for it again."
        case .endlessPagination(let request, let reason):
            return
                "\(request) did not stop paginating: \(reason). The fetch stopped so that the store's lock is released; the pages before are saved. Check that --api-url is Apple's, then run fetch again."
        case .outOfTime(let limit):
            return
                "fetch stopped after \(limit), its time limit, so that scheduled runs are not held up: what it fetched is saved, and the next fetch continues from there."
        case .badResponse(let request, let reason):
            return "\(request) answered something iaplens cannot read: \(reason)."
        case .archive(let path, let reason):
            return "Cannot write \(path): \(reason). Check that the archive folder is writable and the disk has room."
        case .invalidIdentifier(let kind, let value):
            return
                "\(kind) \(Self.quoted(value)) is not one Apple issues (\(kind == "order ID" ? "letters and digits" : "digits only")): it was not asked about. Correct it in the list, then run fetch again."
        case .readList(let path, let reason):
            return "Cannot read the ID list \(path): \(reason)."
        case .badConnectKey(let path, let reason):
            return
                "The App Store Connect API key \(path) cannot be used: \(reason). Download it again from App Store Connect (Users and Access → Integrations → App Store Connect API; a key with the Finance role)."
        case .connectUnauthorized(let status, let keyId, let issuerId, let detail):
            return
                "The App Store Connect API refused the token (HTTP \(status)\(detail.isEmpty ? "" : ": \(detail.prefix(200))")): check that key \(keyId) is an active App Store Connect API key of issuer \(issuerId) with the Finance (or Admin) role, that --connect-private-key is that key's .p8 file, and that this machine's clock is right."
        case .connectRejected(let status, let request, let code, let detail):
            return
                "The App Store Connect API rejected \(request) (HTTP \(status), \(code)): \(detail.prefix(300)). Check --vendor-number (Payments and Financial Reports shows it)."
        }
    }
}
