import IAPAnalytics
import IAPStore
import Testing

/// The data-quality figures of report.md (Documentation/Reports.md, "Data quality").
@Suite("data quality")
struct DataQualityTests {
    @Test func duplicatesAreExtraAcceptedCopiesWhateverOtherCopiesShareTheirID() throws {
        // Given a notification delivered three times (all accepted) plus once more from another environment,
        // and a sandbox notification delivered twice (never accepted)
        let scenario = try Scenario()
        let t1 = Txn.subscription("t1", original: "s1", purchase: at("2026-01-01"), expires: at("2026-02-01"))
        let first = scenario.notify("SUBSCRIBED", at: at("2026-01-01"), t1)
        scenario.redelivered(first, at: at("2026-01-01"), outcome: .accepted)
        scenario.redelivered(first, at: at("2026-01-01"), outcome: .accepted)
        scenario.redelivered(first, at: at("2026-01-01"), outcome: .otherEnvironment, environment: "Sandbox")
        let sandbox = scenario.notify("DID_RENEW", at: at("2026-01-03"), t1, environment: "Sandbox")
        scenario.redelivered(sandbox, at: at("2026-01-03"), outcome: .otherEnvironment, environment: "Sandbox")
        // When
        let quality = try scenario.report().dataQuality
        // Then two accepted copies are duplicates; copies that were not accepted never count as duplicates
        #expect(quality.documentsRead == 6)
        #expect(quality.accepted == 3)
        #expect(quality.duplicates == 2)
    }
}
