import Foundation
import IAPAnalytics
import IAPFetch
import IAPPipeline
import IAPTestSupport
import Testing

/// The configuration file: keys named like the flags, thresholds by their table, and what editors add.
@Suite struct ConfigurationFileTests {
    private func apply(_ bytes: [UInt8]) throws -> PipelineConfiguration {
        let archive = try TestArchive()
        let path = archive.root + "/iaplens.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var configuration = PipelineConfiguration()
        try ConfigurationFile.apply(path, to: &configuration)
        return configuration
    }

    @Test func aFileSavedWithAByteOrderMarkIsRead() throws {
        let configuration = try apply(
            [0xEF, 0xBB, 0xBF] + Array(#"{"bundle-id": "com.example.app", "database": "postgres://u@h/d"}"#.utf8))
        #expect(configuration.bundleId == "com.example.app")
        #expect(configuration.databasePath == "postgres://u@h/d")
    }

    /// The vendor's name reaches the financial reports' fetch trimmed; an empty one checks nothing.
    @Test func theVendorNameReachesTheFinanceFetch() throws {
        let connect =
            #""connect-issuer-id": "i", "connect-key-id": "k", "connect-private-key": "/k.p8", "vendor-number": "8","#
            + #" "archive": "/archive", "bundle-id": "com.example.app""#
        let named = try apply(Array(("{" + connect + #", "vendor-name": " Test Dev "}"#).utf8))
        #expect(try named.fetchOptions().finance?.vendorName == "Test Dev")
        let empty = try apply(Array(("{" + connect + #", "vendor-name": ""}"#).utf8))
        #expect(try empty.fetchOptions().finance?.vendorName == nil)
    }

    /// `production` or `eur` can mean only one thing: taken as it, where they were refused; anything else still is.
    @Test func spellingsThatMeanOneThingAreTakenAsIt() throws {
        var configuration = try apply(
            Array(#"{"bundle-id": "com.example.app", "environment": "production", "reporting-currency": "eur"}"#.utf8))
        configuration.normalizeSpellings()
        #expect(configuration.environment == "Production" && configuration.reportingCurrency == "EUR")
        try configuration.validate(requireInputs: false)
        for (environment, currency) in [("Prod", "EUR"), ("Production", "euro"), ("Production", "€UR")] {
            configuration.environment = environment
            configuration.reportingCurrency = currency
            configuration.normalizeSpellings()
            #expect(throws: PipelineError.self, "\(environment) \(currency)") {
                try configuration.validate(requireInputs: false)
            }
        }
    }

    @Test func everyThresholdIsAKeyNamedLikeItsFlag() throws {
        var object: [String] = []
        for (index, threshold) in FlagThreshold.allCases.enumerated() {
            object.append("\"\(threshold.rawValue)\": \(threshold.range.lowerBound + index % 2)")
        }
        let configuration = try apply(Array(("{" + object.joined(separator: ", ") + "}").utf8))
        for (index, threshold) in FlagThreshold.allCases.enumerated() {
            #expect(configuration.thresholds[threshold] == threshold.range.lowerBound + index % 2, "\(threshold)")
        }
        #expect(throws: PipelineError.self) { _ = try apply(Array(#"{"burst-refund": 3}"#.utf8)) }
    }

    /// A misspelt key is refused naming the key it most likely meant; a name close to none is refused without a guess.
    @Test func anUnknownKeyIsRefusedWithTheClosestKey() throws {
        func message(_ json: String) -> String {
            do {
                _ = try apply(Array(json.utf8))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let misspelt = message(#"{"databse": "x.sqlite"}"#)
        #expect(misspelt.contains(#"unknown key "databse"; did you mean "database"?"#), "\(misspelt)")
        let other = message(#"{"colour-scheme": "dark"}"#)
        #expect(other.contains(#"unknown key "colour-scheme""#) && !other.contains("did you mean"), "\(other)")
    }

    /// A deployed config is often a link (`/etc/iaplens/app.json -> /srv/cfg/app.json`); its relative
    /// paths once resolved beside the link, which silently made a new, empty store there.
    @Test func relativePathsOfALinkedConfigAreBesideTheFileItself() throws {
        let archive = try TestArchive()
        let real = archive.root + "/srv/cfg"
        let links = archive.root + "/etc/iaplens"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        try #"{"database": "store.sqlite"}"#.write(toFile: real + "/app.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: links + "/app.json", withDestinationPath: real + "/app.json")
        var configuration = PipelineConfiguration()
        try ConfigurationFile.apply(links + "/app.json", to: &configuration)
        #expect(configuration.databasePath == real + "/store.sqlite")
    }

    /// One strict reading for every true/false variable (`IAPLENS_QUIET=nonsense` was taken as false
    /// while `IAPLENS_NO_VERIFY=maybe` was refused).
    @Test func unknownVariablesAreFoundWithTheClosestKnownOne() {
        let environment = [
            "IAPLENS_BUNDLEID": "x", "IAPLENS_DATABSE": "x", "IAPLENS_BUNDLE_ID": "x", "IAPLENS_REFERENCE": "all",
            "IAPLENS_MODEL_TIMINGS": "1", "IAPLENS_TEST_POSTGRES_URL": "x", "IAPLENS_ZZZZZZZZZZZZ": "x", "PATH": "/bin",
            "IAPLENS_QUIET": "1",
        ]
        let unknown = ConfigurationEnvironment.unknownVariables(in: environment, alsoRead: ["IAPLENS_QUIET"])
        #expect(unknown.map(\.name) == ["IAPLENS_BUNDLEID", "IAPLENS_DATABSE", "IAPLENS_ZZZZZZZZZZZZ"])
        #expect(unknown.map(\.meant) == ["IAPLENS_BUNDLE_ID", "IAPLENS_DATABASE", nil])
    }

    @Test func everyFlagVariableIsReadOneWay() {
        for text in ["1", "true", "YES", " yes "] { #expect(ConfigurationEnvironment.flag(text) == true, "\(text)") }
        for text in ["0", "false", "No", ""] { #expect(ConfigurationEnvironment.flag(text) == false, "\(text)") }
        for text in ["nonsense", "maybe", "2", "on"] { #expect(ConfigurationEnvironment.flag(text) == nil, "\(text)") }
    }

    /// cron starts jobs in $HOME: a relative path in the config file means beside the config file.
    @Test func relativePathsAreBesideTheConfigFile() throws {
        let archive = try TestArchive()
        let folder = archive.root + "/etc/iaplens"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/app.json"
        try
            #"{"input": ["archive", "/abs/in"], "database": "store.sqlite", "products": "../products.csv", "facts": "facts.csv", "private-key": "AuthKey_X.p8", "reports": "/var/reports"}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        var configuration = PipelineConfiguration()
        try ConfigurationFile.apply(path, to: &configuration)
        #expect(configuration.inputs == [folder + "/archive", "/abs/in"])
        #expect(configuration.databasePath == folder + "/store.sqlite")
        #expect(configuration.productsPath == folder + "/../products.csv")
        #expect(configuration.fetch.facts == folder + "/facts.csv")
        #expect(configuration.fetch.privateKey == folder + "/AuthKey_X.p8")
        #expect(configuration.reportsDirectory == "/var/reports")
        // A key the file does not set keeps its default, relative to where iaplens runs; a URL is no path.
        #expect(configuration.accountsPath == nil)
        try #"{"database": "postgresql://u@h/d?schema=s"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        var other = PipelineConfiguration()
        try ConfigurationFile.apply(path, to: &other)
        #expect(other.databasePath == "postgresql://u@h/d?schema=s")
        #expect(other.reportsDirectory == "reports")
    }

    /// Every key of the configuration file has its IAPLENS_* variable, and each is read.
    @Test func everyKeyHasAnEnvironmentVariable() throws {
        var environment: [String: String] = [:]
        for name in ConfigurationEnvironment.variables { environment[name] = "7" }
        environment["IAPLENS_NO_VERIFY"] = "true"
        environment["IAPLENS_SMALL_BUSINESS"] = "1"
        environment["IAPLENS_AS_OF"] = "2026-10-31T23:59:59Z"
        environment["IAPLENS_INPUT"] = "a,b"
        var configuration = PipelineConfiguration()
        try ConfigurationEnvironment.apply(environment, to: &configuration)
        #expect(configuration.inputs == ["a", "b"])
        #expect(configuration.bundleId == "7" && configuration.appAppleId == 7 && configuration.noVerify)
        #expect(configuration.fetch.privateKey == "7" && configuration.maxQuarantinePercent == 7)
        #expect(ConfigurationEnvironment.variable(for: "v1-shared-secret") == "IAPLENS_V1_SHARED_SECRET")
    }
}
