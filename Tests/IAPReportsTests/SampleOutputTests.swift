import IAPAnalytics
import Testing

@testable import IAPReports

/// Writes the fixture set to `$IAPLENS_SAMPLE_REPORTS` when that variable is set, so a person can read the pages.
@Suite struct SampleOutputTests {
    @Test func writeSampleWhenAsked() throws {
        guard let folder = Environment.value("IAPLENS_SAMPLE_REPORTS") else { return }
        let set = Fixtures.set(
            months: [Fixtures.september(), Fixtures.october(), Fixtures.emptyNovember()], unverified: 3,
            notes: ["Figures as of --as-of 2026-10-31T01:00:00Z, not the newest document."])
        _ = try ReportWriter(directory: folder).write(set)
    }
}
