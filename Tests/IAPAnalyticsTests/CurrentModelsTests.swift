import Foundation
import IAPStore
import IAPTestSupport
import Testing

@testable import IAPAnalytics

/// `analyze` builds nothing when the marts were built from what the store holds now, with the same options and
/// models: a scheduled run that found nothing new costs no analysis.
@Suite("analyze keeps current models")
struct CurrentModelsTests {
    let options = AnalysisOptions(bundleId: "com.example.app")

    /// A subscription that renews once and a consumable with a consumption request.
    func scenario(_ engine: StoreKind) throws -> Scenario {
        let scenario = try Scenario(engine: try engine.freshStore())
        let first = Txn.subscription("s-1", original: "s", purchase: at("2026-01-05"), expires: at("2026-02-05"))
        scenario.notify("SUBSCRIBED", at: at("2026-01-05"), first, renewal: Renewal(original: "s"))
        let second = Txn.subscription("s-2", original: "s", purchase: at("2026-02-05"), expires: at("2026-03-05"))
        scenario.notify("DID_RENEW", at: at("2026-02-05"), second, renewal: Renewal(original: "s"))
        let coin = Txn.consumable("c1", purchase: at("2026-02-10"))
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-02-10"), coin)
        scenario.notify("CONSUMPTION_REQUEST", at: at("2026-02-11"), coin)
        return scenario
    }

    /// A row no build writes, left in `churn` to tell whether the marts were built again.
    func markChurn(_ store: any StoreEngine) throws {
        _ = try store.write { connection in
            try connection.execute(
                "insert into churn (month, product_id, churn_type, reason, subscriptions) values ('1999-01', 'marker', 'other', 'unknown', 1)"
            )
        }
    }

    func isMarked(_ store: any StoreEngine) throws -> Bool {
        try store.read { connection in
            try connection.integer("select count(*) from churn where product_id = 'marker'") == 1
        }
    }

    @Test(arguments: StoreKind.allCases)
    func nothingNewBuildsNothingAndSaysSo(engine: StoreKind) throws {
        let scenario = try scenario(engine)
        let before = try scenario.report(options)
        try markChurn(scenario.engine)
        let summary = try Analyzer(store: scenario.engine).analyze(options)
        #expect(summary.modelsWereCurrent)
        #expect(try isMarked(scenario.engine))
        #expect(summary.months == before.monthNames)
        #expect(summary.asOf == before.asOf)
    }

    @Test(arguments: StoreKind.allCases)
    func newDataOtherOptionsOrMissingMartsBuildAgain(engine: StoreKind) throws {
        let scenario = try scenario(engine)
        _ = try scenario.report(options)
        // New data.
        try markChurn(scenario.engine)
        scenario.notify("ONE_TIME_CHARGE", at: at("2026-02-12"), Txn.consumable("c2", purchase: at("2026-02-12")))
        let afterNewData = try scenario.report(options, keepingCurrentModels: true)
        #expect(try !isMarked(scenario.engine))
        #expect(afterNewData.asOf == at("2026-02-12"))
        // Other options.
        try markChurn(scenario.engine)
        let otherOptions = try Analyzer(store: scenario.engine).analyze(
            AnalysisOptions(bundleId: "com.example.app", smallBusiness: true))
        #expect(!otherOptions.modelsWereCurrent)
        #expect(try !isMarked(scenario.engine))
        // A mart dropped by hand.
        _ = try Analyzer(store: scenario.engine).analyze(options)
        _ = try scenario.engine.write { connection in try connection.execute("drop table refunds") }
        let afterDrop = try Analyzer(store: scenario.engine).analyze(options)
        #expect(!afterDrop.modelsWereCurrent)
        #expect(try scenario.engine.read { try $0.tableExists("refunds") })
    }

    /// `iaplens consumption` records answers without changing the data version: the models that read them are built
    /// again even when everything else stands.
    @Test(arguments: StoreKind.allCases)
    func answersRecordedSinceAreRead(engine: StoreKind) throws {
        let scenario = try scenario(engine)
        _ = try scenario.report(options)
        let outcome = { try scenario.engine.read { try $0.text("select answer from consumption_request_outcomes") } }
        let unanswered = try outcome()
        _ = try scenario.engine.write { connection in
            let notification = try connection.text("select request_id from consumption_request_outcomes") ?? ""
            try connection.execute(
                "insert into consumption_answers (notification_id, transaction_id, result, sent_at, http_status) values (?, 'c1', 'answered', ?, 202)",
                [.text(notification), .integer(at("2026-02-11") + 3_600_000)])
        }
        let summary = try Analyzer(store: scenario.engine).analyze(options)
        #expect(summary.modelsWereCurrent)
        #expect(try outcome() != unanswered)
        #expect(try outcome() == "answered")
    }
}
