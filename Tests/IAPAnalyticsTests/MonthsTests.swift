import Foundation
import IAPAnalytics
import IAPStore
import Testing

@Suite("months written, order_lookups.csv, data quality")
struct MonthsTests {
    func scenario() throws -> Scenario {
        // Sales in January and April 2026; T is a notification signed in May.
        let scenario = try Scenario()
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-01-10"), Txn.consumable("c1", purchase: at("2026-01-10")))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-04-10"), Txn.consumable("c2", purchase: at("2026-04-10")))
        scenario.notify(
            "CONSUMPTION_REQUEST", at: at("2026-05-02"), Txn.consumable("c2", purchase: at("2026-04-10")),
            verified: false)
        return scenario
    }

    @Test func defaultRangeRunsFromTheFirstActiveMonthToTheMonthOfT() throws {
        // When
        let report = try scenario().report()
        // Then every month from January to May, the gaps marked empty, all eight tables in each
        #expect(report.monthNames == ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"])
        #expect(report.months.map(\.isEmpty) == [false, true, true, false, true])
        #expect(report.months.allSatisfy { $0.tables.map(\.name) == ReportColumns.files.map(\.name) })
        #expect(report.asOf == at("2026-05-02"))
        #expect(report.notes.first == "1 accepted document was ingested with --no-verify: signatures not checked.")
    }

    @Test func requestedMonthsOnlyEvenWhenEmpty() throws {
        // When only March (empty) and April are asked for
        let options = AnalysisOptions(bundleId: "com.example.app", months: ["2026-04", "2026-03", "2026-04"])
        let report = try scenario().report(options)
        // Then exactly those, March empty with header-only tables
        #expect(report.monthNames == ["2026-03", "2026-04"])
        #expect(report.months.map(\.isEmpty) == [true, false])
        #expect(report.months[0].tables.allSatisfy { $0.rows.isEmpty })
    }

    @Test func asOfEndsTheRange() throws {
        // When T is set in February
        let report = try scenario().report(AnalysisOptions(bundleId: "com.example.app", asOf: at("2026-02-15")))
        // Then
        #expect(report.monthNames == ["2026-01", "2026-02"])
        #expect(report.asOf == at("2026-02-15"))
    }

    /// A month after the month of T is one the archive has not seen: refused, as a month before the first observed one
    /// is. Before, it was written as an empty "provisional" month whose data "end less than 60 days after it ended".
    @Test func aMonthAfterTheMonthOfTIsRefused() throws {
        let scenario = try scenario()
        #expect(throws: AnalysisError.monthAfterData(month: "2026-06", asOf: "2026-05-02T00:00:00Z")) {
            try scenario.report(AnalysisOptions(bundleId: "com.example.app", months: ["2026-05", "2026-06"]))
        }
        #expect(
            try scenario.report(AnalysisOptions(bundleId: "com.example.app", months: ["2026-05"])).monthNames == [
                "2026-05"
            ])
        // With --as-of in February, March is after it.
        #expect(throws: AnalysisError.monthAfterData(month: "2026-03", asOf: "2026-02-15T00:00:00Z")) {
            try scenario.report(
                AnalysisOptions(bundleId: "com.example.app", asOf: at("2026-02-15"), months: ["2026-03"]))
        }
    }

    /// An archive whose accepted notifications hold no counted activity (a free trial that ended) still has observed
    /// months: the range starts at the first of them. Before, no month was written at all, because the start was
    /// taken from a join with the months of activity, which were none.
    @Test func anArchiveWithoutCountedActivityWritesItsObservedMonths() throws {
        let scenario = try Scenario()
        let trial = Txn.subscription("t1", original: "s1", purchase: at("2026-01-05"), expires: at("2026-01-12"))
            .freeTrial()
        scenario.notify("SUBSCRIBED", at: at("2026-01-05"), trial)
        scenario.notify(
            "EXPIRED", subtype: "VOLUNTARY", at: at("2026-02-12"), trial,
            renewal: Renewal(original: "s1", autoRenew: false, intent: 1))
        let report = try scenario.report()
        #expect(report.monthNames == ["2026-01", "2026-02"])
        #expect(report.months.map(\.isEmpty) == [true, true])
    }

    @Test func emptyStoreWritesNothing() throws {
        let report = try Scenario().report()
        #expect(report.months.isEmpty)
    }

    @Test func reportSetRefusesOtherOptions() throws {
        // Given a store analyzed with the defaults
        let scenario = try scenario()
        _ = try scenario.report()
        // When the report asks for the Small Business rate
        let analyzer = Analyzer(store: scenario.store)
        // Then it must be analyzed again
        #expect(throws: AnalysisError.analyzedWithOtherOptions) {
            try analyzer.reportSet(AnalysisOptions(bundleId: "com.example.app", smallBusiness: true))
        }
        #expect(throws: AnalysisError.self) {
            try AnalysisOptions(bundleId: "com.example.app", months: ["2026-13"]).validate()
        }
    }

    /// Models built by an iaplens whose SQL or business rules differ (an upgrade) are not current: `report` builds them
    /// again. Before, the key held only the options and the data version, and `report` after an upgrade read marts the
    /// old models had built.
    @Test func modelsBuiltByOtherModelsAreNotCurrent() throws {
        let scenario = try scenario()
        _ = try scenario.report()
        let options = AnalysisOptions(bundleId: "com.example.app")
        let analyzer = Analyzer(store: scenario.store)
        _ = try analyzer.reportSet(options)
        let key = try #require(try scenario.store.read { try $0.text("select model_key from analysis_parameters") })
        #expect(key.range(of: #"\|models [0-9a-f]{16}$"#, options: .regularExpression) != nil, "\(key)")
        _ = try scenario.store.write { connection in
            try connection.execute(
                "update analysis_parameters set model_key = replace(model_key, '|models ', '|models 0')")
        }
        #expect(throws: AnalysisError.analyzedWithOtherOptions) { try analyzer.reportSet(options) }
    }

    @Test func orderLookupsOfTheMonth() throws {
        // Given an order listing a refunded and a plain transaction of two accounts, and an invalid order
        let scenario = try Scenario()
        try scenario.accounts([("tok-a", "acct-1")])
        let paid = Txn.consumable("c2", purchase: at("2026-03-01"), token: "tok-b")
        let refunded = Txn.consumable("c1", purchase: at("2026-03-01"), token: "TOK-A").revoked(at: at("2026-03-04"))
        // (a notification opens the month: lookups alone open none)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-03-01"), paid)
        scenario.orderLookup("MQ1", at: at("2026-03-05"), [refunded, paid], note: nil)
        scenario.orderLookup("BAD", status: 1, at: at("2026-03-06"), [], note: "order not found")
        // When
        let report = try scenario.report()
        // Then
        #expect(
            report.rows("2026-03", "order_lookups.csv") == [
                ["2026-03", "BAD", "BAD", "invalid", "0", "", "", "", "order not found"],
                ["2026-03", "MQ1", "MQ1", "valid", "2", "c1;c2", "c1", "acct-1;tok-b", ""],
            ])
    }
}
