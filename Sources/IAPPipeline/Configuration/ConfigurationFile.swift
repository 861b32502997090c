import Foundation
import IAPAnalytics
import IAPFormats
import IAPStore

/// A JSON configuration file whose keys are the long flag names (`"bundle-id"`, `"input"`, …).
/// It supplies defaults; flags given on the command line win (applied after by the CLI).
public enum ConfigurationFile {
    /// Applies the file at `path` onto `configuration`.
    public static func apply(_ path: String, to configuration: inout PipelineConfiguration) throws(PipelineError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidConfiguration("--config \(path) cannot be read; check the path.")
        }
        // Editors on Windows save UTF-8 with a byte-order mark; JSON forbids it, a person does not see it.
        var bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let object: JSONObject
        do {
            guard case .object(let parsed) = try JSONParser.parse(bytes) else {
                throw PipelineError.invalidConfiguration("--config \(path) must hold one JSON object.")
            }
            object = parsed
        } catch let error as PipelineError {
            throw error
        } catch {
            throw .invalidConfiguration("--config \(path) is not valid JSON: \(error).")
        }
        for (key, value) in object.pairs {
            try apply(key: key, value: value, to: &configuration, path: path)
        }
        resolvePaths(in: &configuration, keys: Set(object.keys), againstFolderOf: path)
    }

    /// Relative paths in a config file name files beside the config file, not in whatever folder cron starts in:
    /// each path-valued key the file sets is made absolute against the config file's folder (a PostgreSQL URL is
    /// left alone; defaults and flags keep meaning the working directory).
    static func resolvePaths(in c: inout PipelineConfiguration, keys: Set<String>, againstFolderOf configPath: String) {
        let absolute =
            (configPath as NSString).isAbsolutePath
            ? configPath : FileManager.default.currentDirectoryPath + "/" + configPath
        // The file's own folder, not a link's: a deployed `/etc/iaplens/app.json -> /srv/cfg/app.json` means paths
        // beside /srv/cfg/app.json, where the file and its data were written.
        let real = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        let folder = (real as NSString).deletingLastPathComponent
        func resolve(_ path: String) -> String {
            path.isEmpty || (path as NSString).isAbsolutePath || StoreLocation.isPostgres(path)
                ? path
                : (folder as NSString).appendingPathComponent(path)
        }
        func resolve(_ path: String?) -> String? { path.map { resolve($0) } }
        if keys.contains("input") { c.inputs = c.inputs.map { resolve($0) } }
        if keys.contains("database") { c.databasePath = resolve(c.databasePath) }
        if keys.contains("reports") { c.reportsDirectory = resolve(c.reportsDirectory) }
        if keys.contains("root-certificate") { c.rootCertificates = c.rootCertificates.map { resolve($0) } }
        if keys.contains("products") { c.productsPath = resolve(c.productsPath) }
        if keys.contains("accounts") { c.accountsPath = resolve(c.accountsPath) }
        if keys.contains("reviews") { c.reviewsPath = resolve(c.reviewsPath) }
        if keys.contains("private-key") { c.fetch.privateKey = resolve(c.fetch.privateKey) }
        if keys.contains("archive") { c.fetch.archive = resolve(c.fetch.archive) }
        if keys.contains("transaction-ids") { c.fetch.transactionIds = resolve(c.fetch.transactionIds) }
        if keys.contains("order-ids") { c.fetch.orderIds = resolve(c.fetch.orderIds) }
        if keys.contains("facts") { c.fetch.facts = resolve(c.fetch.facts) }
    }

    static func apply(key: String, value: JSONValue, to c: inout PipelineConfiguration, path: String)
        throws(PipelineError)
    {
        func string() throws(PipelineError) -> String {
            guard let text = value.stringValue else { throw wrongType(key, "a string", path) }
            return text
        }
        func strings() throws(PipelineError) -> [String] {
            if let text = value.stringValue { return [text] }
            guard let items = value.arrayValue else { throw wrongType(key, "a string or a list of strings", path) }
            var result: [String] = []
            for item in items {
                guard let text = item.stringValue else { throw wrongType(key, "a list of strings", path) }
                result.append(text)
            }
            return result
        }
        func integer() throws(PipelineError) -> Int64 {
            guard let number = value.int64Value else { throw wrongType(key, "an integer", path) }
            return number
        }
        func flag() throws(PipelineError) -> Bool {
            guard let flag = value.boolValue else { throw wrongType(key, "true or false", path) }
            return flag
        }
        switch key {
        case "input": c.inputs = try strings()
        case "database": c.databasePath = try string()
        case "reports": c.reportsDirectory = try string()
        case "bundle-id": c.bundleId = try string()
        case "app-apple-id": c.appAppleId = try integer()
        case "environment": c.environment = try string()
        case "root-certificate": c.rootCertificates = try strings()
        case "no-verify": c.noVerify = try flag()
        case "v1-shared-secret": c.v1SharedSecret = try string()
        case "products": c.productsPath = try string()
        case "accounts": c.accountsPath = try string()
        case "reviews": c.reviewsPath = try string()
        case "reporting-currency": c.reportingCurrency = try string()
        case "small-business": c.smallBusiness = try flag()
        case "month": c.months = try strings()
        case "apple-time-zone": c.appleTimeZone = try string()
        case "issuer-id": c.fetch.issuerId = try string()
        case "key-id": c.fetch.keyId = try string()
        case "private-key": c.fetch.privateKey = try string()
        case "archive": c.fetch.archive = try string()
        case "api-url": c.fetch.apiURL = try string()
        case "since": c.fetch.since = try string()
        case "until": c.fetch.until = try string()
        case "refund-history": c.fetch.refundHistory = try string()
        case "transaction-ids": c.fetch.transactionIds = try string()
        case "order-ids": c.fetch.orderIds = try string()
        case "facts": c.fetch.facts = try string()
        case "deadline": c.fetch.consumptionDeadlineSeconds = try integer()
        case "connect-issuer-id": c.fetch.connectIssuerId = try string()
        case "connect-key-id": c.fetch.connectKeyId = try string()
        case "connect-private-key": c.fetch.connectPrivateKey = try string()
        case "vendor-number": c.fetch.vendorNumber = try string()
        case "vendor-name": c.fetch.vendorName = try string()
        case "connect-api-url": c.fetch.connectAPIURL = try string()
        case "max-quarantine-percent": c.maxQuarantinePercent = Int(clamping: try integer())
        case "as-of":
            let text = try string()
            guard let millis = ISO8601Millis.parse(text) else {
                throw .invalidConfiguration("--config \(path): \"as-of\" " + ISO8601Millis.refusal(of: text) + ".")
            }
            c.asOf = millis
        default:
            // The flag thresholds' keys are their flags' names (FlagThreshold).
            if let threshold = FlagThreshold(rawValue: key) {
                c.thresholds[threshold] = Int(clamping: try integer())
                return
            }
            let meant = ConfigurationEnvironment.closest(
                to: key, among: ConfigurationEnvironment.keys.map(\.key), within: 3)
            throw .invalidConfiguration(
                "--config \(path): unknown key \"\(key)\"; "
                    + (meant.map { "did you mean \"\($0)\"? " } ?? "")
                    + "keys are the long flag names, e.g. \"bundle-id\".")
        }
    }

    private static func wrongType(_ key: String, _ expected: String, _ path: String) -> PipelineError {
        .invalidConfiguration("--config \(path): \"\(key)\" must be \(expected).")
    }
}
