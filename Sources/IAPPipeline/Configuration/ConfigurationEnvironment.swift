import Foundation
import IAPAnalytics
import IAPFormats

/// `IAPLENS_*` environment variables: every configuration key as a variable (`bundle-id` → `IAPLENS_BUNDLE_ID`),
/// so a scheduler or a container passes options and secrets (`IAPLENS_V1_SHARED_SECRET`) without a file or a
/// command line others can read. Precedence: the config file, then the environment, then flags.
public enum ConfigurationEnvironment {
    enum Kind {
        case text
        /// Comma-separated.
        case list
        case integer
        case flag
    }

    /// Every key of the configuration file with how its variable is written.
    static let keys: [(key: String, kind: Kind)] =
        [
            ("input", .list), ("database", .text), ("reports", .text), ("bundle-id", .text), ("app-apple-id", .integer),
            ("environment", .text), ("root-certificate", .list), ("no-verify", .flag), ("v1-shared-secret", .text),
            ("products", .text), ("accounts", .text), ("small-business", .flag), ("month", .list), ("as-of", .text),
            ("apple-time-zone", .text),
            ("issuer-id", .text), ("key-id", .text), ("private-key", .text), ("archive", .text), ("api-url", .text),
            ("since", .text), ("until", .text), ("refund-history", .text), ("transaction-ids", .text),
            ("order-ids", .text),
            ("facts", .text), ("max-quarantine-percent", .integer), ("connect-issuer-id", .text),
            ("connect-key-id", .text),
            ("connect-private-key", .text), ("vendor-number", .text), ("vendor-name", .text),
            ("connect-api-url", .text),
            ("deadline", .integer), ("reviews", .text), ("reporting-currency", .text),
        ] + FlagThreshold.allCases.map { ($0.rawValue, Kind.integer) }

    /// `IAPLENS_` and the key in upper case with `_` for `-`.
    public static func variable(for key: String) -> String {
        "IAPLENS_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Every variable this iaplens reads, for `--help` and the README.
    public static var variables: [String] { keys.map { variable(for: $0.key) } }

    /// The `IAPLENS_*` variables of `environment` that iaplens does not read, sorted, each with the variable it
    /// most likely meant (nil when none is close): a misspelt `IAPLENS_BUNDLEID` is otherwise silently without effect,
    /// where a configuration file's unknown key is refused. `alsoRead`: the command line's own switches; the analysis
    /// and fast-path switches are known here, and the test suite's and fuzzer's `IAPLENS_TEST_*` are left alone.
    public static func unknownVariables(
        in environment: [String: String], alsoRead: [String]
    ) -> [(name: String, meant: String?)] {
        let known = Set(variables + alsoRead + Analyzer.environmentVariables + [FastPath.environmentVariable])
        return environment.keys
            .filter { $0.hasPrefix("IAPLENS_") && !$0.hasPrefix("IAPLENS_TEST_") && !known.contains($0) }
            .sorted()
            .map { name in (name, closest(to: name, among: Array(known), within: 3)) }
    }

    /// The name of `names` nearest to `name` (ties in byte order) when it is at most `within` edits away: what a
    /// misspelt variable, configuration key or command most likely meant.
    public static func closest(to name: String, among names: [String], within: Int) -> String? {
        names.map { ($0, editDistance(name, $0)) }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }
            .flatMap { $0.1 <= within ? $0.0 : nil }
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Applies the variables `environment` sets onto `configuration`.
    public static func apply(_ environment: [String: String], to configuration: inout PipelineConfiguration)
        throws(PipelineError)
    {
        for (key, kind) in keys {
            let name = variable(for: key)
            guard let text = environment[name] else { continue }
            let value: JSONValue
            switch kind {
            case .text:
                value = .string(text)
            case .list:
                value = .array(text.split(separator: ",").map { .string(String($0)) })
            case .integer:
                guard let number = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                    throw .invalidConfiguration("\(name) must be a whole number (got \(text)).")
                }
                value = .number(JSONNumber(number))
            case .flag:
                guard let flag = Self.flag(text) else {
                    throw .invalidConfiguration("\(name) must be true or false (got \(text)).")
                }
                value = .bool(flag)
            }
            try ConfigurationFile.apply(
                key: key, value: value, to: &configuration, path: "(environment variable \(name))")
        }
    }

    /// The one reading of a true/false environment variable, for every `IAPLENS_…` flag: `1`, `true`, `yes` or
    /// `0`, `false`, `no`, empty (any case); nil for anything else, which the caller refuses with a sentence.
    public static func flag(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no", "": false
        default: nil
        }
    }
}
