/// The App Store environment a document belongs to.
/// https://developer.apple.com/documentation/appstoreservernotifications/environment
public enum AppStoreEnvironment: String, Sendable, CaseIterable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    /// Normalises the spellings Apple has used: V2 `Production`/`Sandbox`, V1 top-level `PROD`/`Sandbox`.
    /// Unknown spellings come back unchanged so they stay visible as their own environment.
    public static func normalizedName(_ raw: String) -> String {
        switch raw {
        case "PROD", "Production", "production", "PRODUCTION": return AppStoreEnvironment.production.rawValue
        case "Sandbox", "sandbox", "SANDBOX": return AppStoreEnvironment.sandbox.rawValue
        default: return raw
        }
    }
}
