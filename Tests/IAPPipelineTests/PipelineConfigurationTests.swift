import Foundation
import IAPFetch
import IAPPipeline
import Testing

/// What `validate` refuses before a run opens the store, each refusal a sentence that says which side of a bound the
/// value fell on and why that side is one.
@Suite struct PipelineConfigurationTests {
    private func refusal(asOf: Int64) -> String? {
        var configuration = PipelineConfiguration()
        configuration.bundleId = "com.example.app"
        configuration.asOf = asOf
        do {
            try configuration.validate(requireInputs: false)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func anAsOfTimeBeforeTheAppStoreOrInTheFutureIsRefusedSayingWhichAndWhy() throws {
        let epoch = try #require(refusal(asOf: 0))
        #expect(epoch.contains("1970-01-01T00:00:00"), "\(epoch)")
        #expect(epoch.contains("sold nothing before 2008"), "\(epoch)")
        #expect(!epoch.contains("future"), "a time in the past is not explained by the future: \(epoch)")
        let nextYear = Int64(Date().timeIntervalSince1970 * 1000) + 366 * 86_400_000
        let future = try #require(refusal(asOf: nextYear))
        #expect(future.contains("as of the future would count retries as lost"), "\(future)")
        #expect(refusal(asOf: 1_767_225_600_000) == nil, "2026-01-01 is a time a report can be made as of")
    }

    private func fetchRefusal(_ configure: (inout PipelineConfiguration) -> Void) -> String? {
        var configuration = PipelineConfiguration()
        configure(&configuration)
        do {
            _ = try configuration.fetchOptions()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A first `fetch` names every option it still needs, in one sentence, and where each may be given: set up one
    /// run at a time, it took five runs to learn them.
    @Test func aFetchNamesEveryMissingOptionAtOnce() throws {
        let bare = try #require(fetchRefusal { _ in })
        #expect(
            bare
                == "--issuer-id, --key-id, --private-key, --archive and --bundle-id are missing: give each on the command "
                + "line, as \"issuer-id\", \"key-id\", \"private-key\", \"archive\" and \"bundle-id\" in the config file, or as "
                + "IAPLENS_ISSUER_ID, IAPLENS_KEY_ID, IAPLENS_PRIVATE_KEY, IAPLENS_ARCHIVE and IAPLENS_BUNDLE_ID.",
            "\(bare)")
        // Financial reports alone need no In-App Purchase key, but every App Store Connect option (an empty vendor
        // number is none).
        let finance = try #require(
            fetchRefusal { configuration in
                configuration.fetch.connectIssuerId = "issuer"
                configuration.fetch.vendorNumber = ""
                configuration.fetch.archive = "/archive"
                configuration.bundleId = "com.example.app"
            })
        #expect(
            finance.hasPrefix("--connect-key-id, --connect-private-key and --vendor-number are missing"), "\(finance)")
        let one = try #require(
            fetchRefusal { configuration in
                configuration.fetch.issuerId = "issuer"
                configuration.fetch.keyId = "key"
                configuration.fetch.privateKey = "/key.p8"
                configuration.fetch.archive = "/archive"
            })
        #expect(
            one
                == "--bundle-id is missing: give it on the command line, as \"bundle-id\" in the config file, or as IAPLENS_BUNDLE_ID."
        )
    }

    @Test func aRunWithoutItsBundleIdAndInputNamesBoth() {
        #expect(
            throws: PipelineError.invalidConfiguration(
                "--bundle-id and --input are required: the App Store bundle ID of the app whose data this is (e.g. "
                    + "com.example.app), and at least one archive file or folder to read.")
        ) {
            try PipelineConfiguration().validate(requireInputs: true)
        }
        var withApp = PipelineConfiguration()
        withApp.bundleId = "com.example.app"
        #expect(
            throws: PipelineError.invalidConfiguration(
                "--input is required: at least one archive file or folder to read.")
        ) {
            try withApp.validate(requireInputs: true)
        }
    }

    /// `consumption` names its facts file and the API key together; a dry run sends nothing, so it needs no key.
    @Test func aConsumptionRunNamesTheFactsAndTheKeyTogether() async {
        await #expect(throws: FetchError.missingOptions(["facts", "issuer-id", "key-id", "private-key"])) {
            _ = try await Pipeline(configuration: PipelineConfiguration()).consume(dryRun: false)
        }
        await #expect(throws: FetchError.missingOptions(["facts"])) {
            _ = try await Pipeline(configuration: PipelineConfiguration()).consume(dryRun: true)
        }
    }
}
