import Foundation
import IAPFormats
import IAPPipeline
import IAPTestSupport

/// A small signed timeline run through the whole pipeline; answers with the contract's CSV rows.
struct Scenario {
    var app = AppFixture()
    var lines: [String] = []
    var asOf: String?
    var smallBusiness = false

    static func at(_ iso: String) -> Int64 { ISO8601Millis.parse(iso) ?? 0 }

    /// A subscription period as a notification.
    mutating func period(
        _ type: String, subtype: String? = nil, uuid: String, id: String, original: String, purchase: String,
        expires: String,
        signed: String? = nil, price: Int64 = 9_990, originalPurchase: String? = nil,
        renewal: [String: JSONValue?] = [:],
        transaction extra: [String: JSONValue?] = [:]
    ) throws {
        let signedDate = Self.at(signed ?? purchase)
        var fields = extra
        if let originalPurchase { fields["originalPurchaseDate"] = .int(Self.at(originalPurchase)) }
        lines.append(
            try app.notification(
                type: type, subtype: subtype, uuid: uuid, signedDate: signedDate,
                transaction: app.transaction(
                    id: id, original: original, purchase: Self.at(purchase), expires: Self.at(expires), price: price,
                    signedDate: signedDate, extra: fields),
                renewal: app.renewal(original: original, signedDate: signedDate, extra: renewal)))
    }

    /// A consumable purchase and, optionally, its refund notification.
    mutating func consumable(
        id: String, purchase: String, refund: String? = nil, token: String? = nil, price: Int64 = 4_990,
        percentage: Int64? = nil,
        environment: String = "Production", appTransactionId: String? = nil
    ) throws {
        var fixture = app
        fixture.environment = environment
        var extra: [String: JSONValue?] = [:]
        if let token { extra["appAccountToken"] = .string(token) }
        if let appTransactionId { extra["appTransactionId"] = .string(appTransactionId) }
        let bought = fixture.transaction(
            id: id, product: "com.example.coins", type: "Consumable", purchase: Self.at(purchase), price: price,
            signedDate: Self.at(purchase), extra: extra)
        lines.append(
            try fixture.notification(
                type: "ONE_TIME_CHARGE", uuid: "buy-\(id)", signedDate: Self.at(purchase), transaction: bought))
        if let refund {
            var refunded = bought.setting("revocationDate", .int(Self.at(refund))).setting(
                "signedDate", .int(Self.at(refund)))
            if let percentage {
                refunded = refunded.setting("revocationPercentage", .int(percentage)).setting(
                    "revocationType", "REFUND_PRORATED")
            }
            lines.append(
                try fixture.notification(
                    type: "REFUND", uuid: "refund-\(id)", signedDate: Self.at(refund), transaction: refunded))
        }
    }

    /// Runs the pipeline and returns a month's rows of one CSV file.
    func rows(_ month: String, _ file: String) throws -> [[String: String]] {
        try run()[month + "/" + file] ?? []
    }

    /// Runs the pipeline once; every CSV keyed by `month/file`.
    /// - Parameter database: The store (a PostgreSQL URL, say); the archive's SQLite file when nil.
    func run(database: String? = nil) throws -> [String: [[String: String]]] {
        let archive = try TestArchive()
        try archive.write("scenario.jsonl", lines: lines)
        let configuration = try archive.configuration(app) { configuration in
            configuration.asOf = asOf.map(Self.at)
            configuration.smallBusiness = smallBusiness
            if let database { configuration.databasePath = database }
        }
        _ = try Pipeline(configuration: configuration).run()
        var result: [String: [[String: String]]] = [:]
        for month in (try? FileManager.default.contentsOfDirectory(atPath: archive.reports)) ?? []
        where month.count == 7 {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: archive.reports + "/" + month)) ?? []
            where file.hasSuffix(".csv") {
                result[month + "/" + file] = CSVReader.records(try archive.report(month + "/" + file))
            }
        }
        return result
    }
}
