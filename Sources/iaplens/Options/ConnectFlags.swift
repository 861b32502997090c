import ArgumentParser
import IAPPipeline

/// The App Store Connect API key that downloads Apple's financial reports (`fetch`): a team key with the Finance role,
/// not the In-App Purchase key.
struct ConnectFlags: ParsableArguments {
    @Option(
        name: .customLong("connect-issuer-id"),
        help: ArgumentHelp(
            "Issuer ID of your App Store Connect API keys (Users and Access → Integrations → App Store Connect API). With the three options below, fetch downloads Apple's financial reports.",
            valueName: "uuid"))
    var issuerId: String?

    @Option(
        name: .customLong("connect-key-id"),
        help: ArgumentHelp("The App Store Connect API key's ID (a key with the Finance role).", valueName: "id"))
    var keyId: String?

    @Option(
        name: .customLong("connect-private-key"),
        help: ArgumentHelp(
            "That key's AuthKey_XXXX.p8 file. Keep it mode 600; it never reaches logs, the store or reports.",
            valueName: "file"))
    var privateKey: String?

    @Option(
        name: .customLong("vendor-number"),
        help: ArgumentHelp(
            "Your vendor number (App Store Connect → Payments and Financial Reports, top left).", valueName: "number"))
    var vendorNumber: String?

    @Option(
        name: .customLong("vendor-name"),
        help: ArgumentHelp(
            "The vendor's name as Apple's reports write it (their Vendor Name line): a downloaded report that names another vendor is not saved, and is asked again. Apple's report names its vendor by name only, never by number.",
            valueName: "name"))
    var vendorName: String?

    @Option(
        name: .customLong("connect-api-url"),
        help: ArgumentHelp(
            "Another base URL for the App Store Connect API (a proxy, a test server). Default: Apple's.",
            valueName: "url"))
    var apiURL: String?

    /// Lays the flags given over the configuration's.
    func apply(to c: inout FetchSettings) {
        if let value = issuerId { c.connectIssuerId = value }
        if let value = keyId { c.connectKeyId = value }
        if let value = privateKey { c.connectPrivateKey = value }
        if let value = vendorNumber { c.vendorNumber = value }
        if let value = vendorName { c.vendorName = value }
        if let value = apiURL { c.connectAPIURL = value }
    }
}
