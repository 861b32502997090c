public import IAPAnalytics
import IAPFormats
import IAPModel

/// Everything a run needs, from flags and an optional configuration file (flags win).
public struct PipelineConfiguration: Sendable, Equatable {
    /// Input files and folders (`--input`, repeatable).
    public var inputs: [String] = []
    /// The store (`--database`): a SQLite file path, or a `postgres://` / `postgresql://` URL.
    public var databasePath: String = "iaplens.sqlite"
    /// Where reports go (`--reports`).
    public var reportsDirectory: String = "reports"
    /// The app's bundle ID (`--bundle-id`, required).
    public var bundleId: String = ""
    /// The app's Apple ID (`--app-apple-id`), checked in Production when documents carry one.
    public var appAppleId: Int64?
    /// `Production` (default) or `Sandbox`.
    public var environment: String = "Production"
    /// Trusted root certificates (PEM or DER); empty means Apple Root CA - G3.
    public var rootCertificates: [String] = []
    /// `--no-verify`: decode without checking signatures (recorded in every report).
    public var noVerify = false
    /// `--v1-shared-secret`: V1 bodies must echo this app-specific shared secret.
    public var v1SharedSecret: String?
    /// `products.csv`.
    public var productsPath: String?
    /// `accounts.csv`.
    public var accountsPath: String?
    /// The reviews file (`--reviews`): trust-and-safety decisions about accounts.
    public var reviewsPath: String?
    /// `--reporting-currency`: the pages also show each month's money in it (default: the bank currency of the
    /// latest paid payment summary).
    public var reportingCurrency: String?
    /// `--small-business`: 85 % proceeds on everything.
    public var smallBusiness = false
    /// `--apple-time-zone`: the zone Apple dates its financial reports in.
    public var appleTimeZone = AppleTimeZone.defaultIdentifier
    /// `--month YYYY-MM` (repeatable): write only these months.
    public var months: [String] = []
    /// `--as-of` as Unix ms; nil means the newest accepted document's time.
    public var asOf: Int64?
    /// Flag rule thresholds (Documentation/Reports.md defaults; ``FlagThreshold`` lists them).
    public var thresholds = FlagThresholds()
    /// `--max-quarantine-percent`: above this share of quarantined documents a run warns, every page says so, and
    /// `ingest` / `run` exit 65.
    public var maxQuarantinePercent = QuarantineShare.defaultMaxPercent
    /// The App Store Server API key and what to fetch (`iaplens fetch`; `run` fetches first when set).
    public var fetch = FetchSettings()

    /// Creates a configuration with defaults.
    public init() {}

    /// Takes a spelling that can mean only one thing as that thing: `--environment production` is Production,
    /// `--reporting-currency eur` is EUR. Run once every source (file, environment, flags) is applied.
    public mutating func normalizeSpellings() {
        environment = AppStoreEnvironment.normalizedName(environment)
        if let currency = reportingCurrency, currency.utf8.count == 3,
            currency.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        {
            reportingCurrency = currency.uppercased()
        }
    }

    /// Checks the values that do not depend on the file system; throws one sentence naming the option.
    /// - Parameter requireBundleId: false to check every other value first (before the store that would name the
    ///   app is looked at).
    public func validate(requireInputs: Bool, requireBundleId: Bool = true) throws(PipelineError) {
        // Both named at once when both are missing: a first run would otherwise learn them one at a time.
        var required: [(option: String, what: String)] = []
        if requireBundleId && bundleId.isEmpty {
            required.append(
                ("--bundle-id", "the App Store bundle ID of the app whose data this is (e.g. com.example.app)"))
        }
        if requireInputs && inputs.isEmpty {
            required.append(("--input", "at least one archive file or folder to read"))
        }
        if !required.isEmpty {
            throw .invalidConfiguration(
                required.map(\.option).joined(separator: " and ") + (required.count == 1 ? " is" : " are")
                    + " required: "
                    + required.map(\.what).joined(separator: ", and ") + ".")
        }
        if ![AppStoreEnvironment.production, .sandbox].map(\.rawValue).contains(environment) {
            throw .invalidConfiguration("--environment must be Production or Sandbox (got \(environment)).")
        }
        for month in months where !CalendarMonth.isOption(month) {
            throw .invalidConfiguration("--month must be written YYYY-MM, e.g. 2026-10 (got \(month)).")
        }
        // Reports cover what has happened: from the App Store's first year to now (a day of slack for clocks).
        let latest = IngestPolicy.latestTimeNow()
        let latestMonth = String(ISO8601Millis.format(latest).prefix(7))
        for month in months where month < "2008-01" || month > latestMonth {
            throw .invalidConfiguration(
                "--month \(month) is outside the months an App Store report can cover (2008-01 to \(latestMonth), this month)."
            )
        }
        if let asOf, asOf < AppStoreBounds.date.lowerBound || asOf > latest {
            let why =
                asOf > latest
                ? "figures as of the future would count retries as lost and requests as missed"
                : "the App Store sold nothing before 2008, so no document can be that old"
            throw .invalidConfiguration(
                "--as-of \(ISO8601Millis.format(asOf)) is outside the times an App Store report can be made as of "
                    + "(2008-01-01 to now): \(why).")
        }
        if let problem = thresholds.problem() { throw .invalidConfiguration(problem) }
        if let currency = reportingCurrency,
            currency.utf8.count != 3
                || !currency.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        {
            throw .invalidConfiguration(
                "--reporting-currency must be an ISO 4217 code of three capital letters, e.g. USD (got \(currency)).")
        }
        if !(1...86_400).contains(fetch.consumptionDeadlineSeconds) {
            throw .invalidConfiguration(
                "--deadline must be from 1 to 86400 seconds (got \(fetch.consumptionDeadlineSeconds)).")
        }
        if !(0...100).contains(maxQuarantinePercent) {
            throw .invalidConfiguration("--max-quarantine-percent must be from 0 to 100 (got \(maxQuarantinePercent)).")
        }
    }
}
