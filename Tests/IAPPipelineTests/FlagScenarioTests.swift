import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// `flagged_accounts.csv` windows at month boundaries, bursts, and unlinked accounts.
@Suite struct FlagScenarioTests {
    let token = "bbbbbbbb-0000-4000-8000-00000000000b"

    @Test(arguments: [("2025-10-31T23:59:59.999Z", true), ("2025-11-01T00:00:00.000Z", false)])
    func aRefundOnTheLastMillisecondOfTheMonthIsInItsWindow(thirdRefund: String, flaggedInOctober: Bool) throws {
        var s = Scenario()
        try s.consumable(id: "c1", purchase: "2025-09-01T00:00:00Z", refund: "2025-09-10T00:00:00Z", token: token)
        try s.consumable(id: "c2", purchase: "2025-09-15T00:00:00Z", refund: "2025-10-20T00:00:00Z", token: token)
        try s.consumable(id: "c3", purchase: "2025-10-25T00:00:00Z", refund: thirdRefund, token: token)
        // Enough other purchases that the lifetime refund rate stays under half: only the window rules count.
        for index in 0..<6 {
            try s.consumable(id: "p\(index)", purchase: "2025-08-0\(index + 1)T00:00:00Z", token: token)
        }
        let october = try s.run()["2025-10/flagged_accounts.csv"] ?? []
        let rules = october.first { $0["account_id"] == token }?["rules"]
        #expect((rules?.contains("repeat_refunds") ?? false) == flaggedInOctober)
    }

    @Test(arguments: [(30, true), (31, false)])
    func aBurstIsTwoConsumableRefundsAtMostThirtyDaysApart(days: Int, flagged: Bool) throws {
        var s = Scenario()
        let second = String(format: "2025-%02d-%02dT12:00:00Z", days == 30 ? 10 : 11, days == 30 ? 31 : 1)
        try s.consumable(id: "c1", purchase: "2025-09-20T00:00:00Z", refund: "2025-10-01T12:00:00Z", token: token)
        try s.consumable(id: "c2", purchase: "2025-09-21T00:00:00Z", refund: second, token: token)
        for index in 0..<6 {
            try s.consumable(id: "p\(index)", purchase: "2025-08-0\(index + 1)T00:00:00Z", token: token)
        }
        s.asOf = "2025-11-15T00:00:00Z"  // so November is written in both cases
        let november = try s.run()["2025-11/flagged_accounts.csv"] ?? []
        let rules = november.first { $0["account_id"] == token }?["rules"] ?? ""
        #expect(rules.contains("consumable_refund_burst") == flagged)
    }

    @Test func highRefundRateAloneStaysFlaggedInLaterMonths() throws {
        var s = Scenario()
        try s.consumable(id: "c1", purchase: "2025-01-01T00:00:00Z", refund: "2025-01-05T00:00:00Z", token: token)
        try s.consumable(id: "c2", purchase: "2025-03-01T00:00:00Z", refund: "2025-03-20T00:00:00Z", token: token)
        try s.consumable(id: "other", purchase: "2025-09-01T00:00:00Z", token: "cccccccc-0000-4000-8000-00000000000c")
        let result = try s.run()
        for month in ["2025-03", "2025-08"] {
            let row = result["\(month)/flagged_accounts.csv"]?.first { $0["account_id"] == token }
            #expect(row?["rules"] == "high_refund_rate", "\(month)")
        }
        #expect(result["2025-08/flagged_accounts.csv"]?.first?["refunds_90d"] == "0")
    }

    @Test func unlinkedAccountsAreNeverFlagged() throws {
        var s = Scenario()
        for index in 0..<4 {
            try s.consumable(
                id: "u\(index)", purchase: "2025-10-0\(index + 1)T00:00:00Z", refund: "2025-10-1\(index)T00:00:00Z")
        }
        let result = try s.run()
        #expect(result["2025-10/flagged_accounts.csv"] ?? [] == [])
        #expect(result["2025-10/refunds.csv"]?.first?["refunds"] == "4")
    }

    @Test func forgedRefundsNeverFlagAnAccount() throws {
        var s = Scenario()
        for index in 0..<3 {
            try s.consumable(id: "c\(index)", purchase: "2025-10-0\(index + 1)T00:00:00Z", token: token)
        }
        let app = s.app
        for index in 0..<3 {
            let forged = app.transaction(
                id: "c\(index)", product: "com.example.coins", type: "Consumable",
                purchase: Scenario.at("2025-10-0\(index + 1)T00:00:00Z"),
                price: 4_990, signedDate: Scenario.at("2025-10-20T00:00:00Z"),
                extra: [
                    "appAccountToken": .string(token),
                    "revocationDate": .int(Scenario.at("2025-10-1\(index)T00:00:00Z")),
                ])
            s.lines.append(
                try app.refundPage([forged]).replacingOccurrences(
                    of: try app.sign(forged), with: try app.sign(forged, with: TestChains.untrustedSigner)))
        }
        let result = try s.run()
        #expect(result["2025-10/flagged_accounts.csv"] ?? [] == [])
        #expect(result["2025-10/refunds.csv"] ?? [] == [])
    }
}
