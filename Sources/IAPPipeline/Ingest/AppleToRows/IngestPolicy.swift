import IAPStore
/// Which documents count for this store: the app, the environment, and whether signatures are checked.
public struct IngestPolicy: Sendable, Equatable {
    /// Only documents of this bundle ID are accepted; others are quarantined as `wrong_app`.
    public var bundleId: String
    /// In Production, documents carrying an app Apple ID must carry this one (when given).
    public var appAppleId: Int64?
    /// `Production` (default) or `Sandbox`; other environments are stored but never counted.
    public var environment: String
    /// False under `--no-verify`: signatures are decoded without being checked, and that is recorded.
    public var verifySignatures: Bool
    /// The app-specific shared secret V1 bodies echo in `password`: V1 is unsigned, so this is its only
    /// proof of origin. When set, a V1 body with another (or no) password is quarantined.
    public var v1SharedSecret: String?

    /// Creates a policy.
    public init(
        bundleId: String, appAppleId: Int64? = nil, environment: String = "Production", verifySignatures: Bool = true,
        v1SharedSecret: String? = nil
    ) {
        self.v1SharedSecret = v1SharedSecret
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.verifySignatures = verifySignatures
    }
}
