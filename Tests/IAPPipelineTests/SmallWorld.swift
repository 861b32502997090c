import Foundation
import IAPFormats
import IAPTestSupport

/// A small, hand-built app history signed for real: subscriptions that renew, churn and get refunded,
/// consumables refunded by a ring account, a V1 era, lookups and noise. Used by end-to-end tests.
enum SmallWorld {
    static let app = AppFixture()

    /// Files (name → lines) of the archive.
    static func files() throws -> [(String, [String])] {
        let monthly = "com.example.monthly"
        var notifications: [String] = []
        // Subscriber A: buys, renews twice, turns auto-renew off, expires voluntarily.
        for (index, day) in [1, 31, 61].enumerated() {
            let id = "a\(index)"
            notifications.append(
                try app.notification(
                    type: index == 0 ? "SUBSCRIBED" : "DID_RENEW", subtype: index == 0 ? "INITIAL_BUY" : nil,
                    uuid: "n-a\(index)",
                    signedDate: Day.at(day),
                    transaction: app.transaction(
                        id: id, original: "a0", product: monthly, purchase: Day.at(day), expires: Day.at(day + 30),
                        signedDate: Day.at(day)),
                    renewal: app.renewal(original: "a0", signedDate: Day.at(day))))
        }
        notifications.append(
            try app.notification(
                type: "EXPIRED", subtype: "VOLUNTARY", uuid: "n-a-exp", signedDate: Day.at(91),
                transaction: app.transaction(
                    id: "a2", original: "a0", product: monthly, purchase: Day.at(61), expires: Day.at(91),
                    signedDate: Day.at(91)),
                renewal: app.renewal(
                    original: "a0", signedDate: Day.at(91), extra: ["autoRenewStatus": 0, "expirationIntent": 1])))
        // Subscriber B: billing failure, never recovers.
        notifications.append(
            try app.notification(
                type: "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n-b0", signedDate: Day.at(5),
                transaction: app.transaction(
                    id: "b0", product: monthly, purchase: Day.at(5), expires: Day.at(35), signedDate: Day.at(5)),
                renewal: app.renewal(original: "b0", signedDate: Day.at(5))))
        notifications.append(
            try app.notification(
                type: "DID_FAIL_TO_RENEW", uuid: "n-b-fail", signedDate: Day.at(35),
                transaction: app.transaction(
                    id: "b0", product: monthly, purchase: Day.at(5), expires: Day.at(35), signedDate: Day.at(35)),
                renewal: app.renewal(
                    original: "b0", signedDate: Day.at(35),
                    extra: ["isInBillingRetryPeriod": true, "expirationIntent": 2])))
        notifications.append(
            try app.notification(
                type: "EXPIRED", subtype: "BILLING_RETRY", uuid: "n-b-exp", signedDate: Day.at(95),
                transaction: app.transaction(
                    id: "b0", product: monthly, purchase: Day.at(5), expires: Day.at(35), signedDate: Day.at(95)),
                renewal: app.renewal(
                    original: "b0", signedDate: Day.at(95), extra: ["autoRenewStatus": 0, "expirationIntent": 2])))
        // A ring account buys three consumables and refunds them within days.
        let token = "11111111-2222-4333-8444-555555555555"
        var ring: [JSONValue] = []
        for index in 0..<3 {
            let purchase = Day.at(40 + index)
            let transaction = app.transaction(
                id: "c\(index)", product: "com.example.coins", type: "Consumable", purchase: purchase, price: 4_990,
                signedDate: purchase, extra: ["appAccountToken": .string(token)])
            notifications.append(
                try app.notification(
                    type: "ONE_TIME_CHARGE", uuid: "n-c\(index)", signedDate: purchase, transaction: transaction))
            ring.append(
                transaction.setting("revocationDate", .int(Day.at(50 + index))).setting("signedDate", .int(Day.at(60))))
        }
        notifications.append(
            try app.notification(
                type: "REFUND", uuid: "n-c0-refund", signedDate: Day.at(50),
                transaction: ring[0].setting("signedDate", .int(Day.at(50)))))
        return [
            ("v2/2023-q4.jsonl", notifications),
            ("lookups/refunds.json", [try app.refundPage(ring)]),
            ("lookups/orders.jsonl", [try app.orderLookup(orderId: "ORDER1", [ring[1]])]),
            ("accounts.csv.txt", ["app_account_token,account_id", "\(token),acct-ring-1"]),
        ]
    }

    /// Writes the world into an archive, optionally only some files.
    static func write(into archive: TestArchive, only names: Set<String>? = nil) throws {
        for (name, lines) in try files() where names == nil || names?.contains(name) == true {
            try archive.write(name, lines: lines)
        }
    }
}
