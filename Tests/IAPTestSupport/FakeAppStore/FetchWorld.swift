import Foundation
import IAPFormats

/// One small app's App Store data, signed with the test chain, in the two forms the fetch tests compare: as Apple's
/// API serves it (``FakeAppStoreData``) and as archive files a team would have saved by hand.
public struct FetchWorld: Sendable {
    public let app = AppFixture()
    public let data: FakeAppStoreData
    /// The same documents as archive lines: webhook bodies, refund-history pages, order lookups.
    public let fileLines: [String: [String]]
    /// Consumables refunded without a REFUND notification: only Get Refund History knows them.
    public let refundOnlyTransactions: [String]
    public let orderIds = ["MQ7P1V2", "MQUNKNOWN"]

    /// Twelve subscribers (bought about 80 days ago, renewed 50 days ago, three refunded), four consumable buyers
    /// whose refunds only the refund history holds, one order that exists and one that does not.
    public init(now: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) throws {
        let day: Int64 = 86_400_000
        let base = now - 80 * day
        let app = AppFixture()
        var served = FakeAppStoreData()
        var webhook: [String] = []
        func notify(_ type: String, uuid: String, at time: Int64, transaction: JSONValue, renewal: JSONValue? = nil)
            throws
        {
            let payload = try app.notificationPayload(
                type: type, uuid: uuid, signedDate: time, transaction: transaction, renewal: renewal)
            let jws = try app.sign(payload)
            served.notifications.append((time, jws))
            webhook.append(AppFixture.body(jws))
        }
        for index in 0..<12 {
            let original = "2000000\(100 + index)"
            let bought = base + Int64(index) * 3_600_000
            try notify(
                "SUBSCRIBED", uuid: "sub-\(index)", at: bought,
                transaction: app.transaction(
                    id: original, original: original, purchase: bought, expires: bought + 30 * day, price: 9_990,
                    signedDate: bought),
                renewal: app.renewal(original: original, signedDate: bought))
            let renewalId = "2000001\(100 + index)"
            let renewed = bought + 30 * day
            let renewal = app.transaction(
                id: renewalId, original: original, purchase: renewed, expires: renewed + 30 * day, price: 9_990,
                signedDate: renewed)
            try notify(
                "DID_RENEW", uuid: "renew-\(index)", at: renewed, transaction: renewal,
                renewal: app.renewal(original: original, signedDate: renewed))
            if index < 3 {
                let refunded = renewed + 2 * day
                try notify(
                    "REFUND", uuid: "refund-\(index)", at: refunded,
                    transaction: renewal.setting("revocationDate", .int(refunded)).setting("revocationReason", .int(1))
                        .setting("signedDate", .int(refunded)))
            }
        }
        var refundPages: [String] = []
        var refundOnly: [String] = []
        for index in 0..<4 {
            let id = "3000000\(100 + index)"
            let bought = base + Int64(index) * day
            let coins = app.transaction(
                id: id, product: "com.example.coins", type: "Consumable", purchase: bought, price: 4_990,
                signedDate: bought)
            try notify("ONE_TIME_CHARGE", uuid: "coins-\(index)", at: bought, transaction: coins)
            let refunded = bought + 5 * day
            let revoked = coins.setting("revocationDate", .int(refunded)).setting("signedDate", .int(refunded))
            let customer = "customer-coins-\(index)"
            served.refunds[customer] = [(refunded, try app.sign(revoked))]
            served.customerOf[id] = customer
            refundPages.append(try app.refundPage([revoked]))
            refundOnly.append(id)
        }
        let ordered = app.transaction(
            id: "3000000100", product: "com.example.coins", type: "Consumable", purchase: base, price: 4_990,
            signedDate: base)
        served.orders["MQ7P1V2"] = (0, [try app.sign(ordered)])
        data = served
        refundOnlyTransactions = refundOnly
        fileLines = [
            "webhook.jsonl": webhook,
            "refunds.jsonl": refundPages,
            "orders.jsonl": [
                try app.orderLookup(orderId: "MQ7P1V2", [ordered]),
                try app.orderLookup(orderId: "MQUNKNOWN", status: 1, []),
            ],
        ]
    }

    /// The business CSVs of a report folder (data quality and the pages left out: how documents arrived differs).
    public static func figures(_ reports: String) -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: reports)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".csv"), !name.hasSuffix("data_quality.csv") else { continue }
            files[name] = try? String(contentsOfFile: reports + "/" + name, encoding: .utf8)
        }
        return files
    }
}
