import IAPFormats
import IAPStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
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
    /// The latest time an unsigned document (a V1 body, by its envelope's `receivedAt` or its own dates) may carry:
    /// nobody signs those times, and one from the future would stretch the report to months that have not happened.
    /// A day after the wall clock at the start of ingest (clocks disagree a little, Apple's never by a day).
    public var latestUnsignedTime: Int64

    /// Creates a policy.
    public init(
        bundleId: String, appAppleId: Int64? = nil, environment: String = "Production", verifySignatures: Bool = true,
        v1SharedSecret: String? = nil, latestUnsignedTime: Int64? = nil
    ) {
        self.latestUnsignedTime = latestUnsignedTime ?? Self.latestTimeNow()
        self.v1SharedSecret = v1SharedSecret
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.verifySignatures = verifySignatures
    }

    /// The latest time anything iaplens is told may carry: a day after the wall clock (clocks disagree a little,
    /// Apple's never by a day). Unsigned documents, `--as-of` and `--month` are held to it.
    public static func latestTimeNow() -> Int64 {
        wallClockMillis() + CivilCalendar.millisecondsPerDay
    }

    /// Now, in Unix milliseconds.
    static func wallClockMillis() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}
