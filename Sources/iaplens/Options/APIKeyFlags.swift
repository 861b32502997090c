import ArgumentParser
import IAPPipeline

/// The In-App Purchase API key and where Apple's App Store Server API is (`fetch`, `consumption`).
struct APIKeyFlags: ParsableArguments {
    @Option(
        name: .customLong("issuer-id"),
        help: ArgumentHelp("Your issuer ID (App Store Connect → Users and Access → Integrations).", valueName: "uuid"))
    var issuerId: String?

    @Option(
        name: .customLong("key-id"),
        help: ArgumentHelp("The In-App Purchase key's ID (the XXXX of AuthKey_XXXX.p8).", valueName: "id"))
    var keyId: String?

    @Option(
        name: .customLong("private-key"),
        help: ArgumentHelp(
            "The key file AuthKey_XXXX.p8 App Store Connect let you download once. Keep it mode 600; it never reaches logs, the store or reports.",
            valueName: "file"))
    var privateKey: String?

    @Option(
        name: .customLong("api-url"),
        help: ArgumentHelp(
            "Another base URL for the App Store Server API (a proxy, a test server). Default: Apple's, for --environment.",
            valueName: "url"))
    var apiURL: String?

    /// Lays the flags given over the configuration's.
    func apply(to c: inout FetchSettings) {
        if let value = issuerId { c.issuerId = value }
        if let value = keyId { c.keyId = value }
        if let value = privateKey { c.privateKey = value }
        if let value = apiURL { c.apiURL = value }
    }
}
