import Foundation
import IAPSimulator
import Testing

/// The manifest must say exactly what a plain re-read of the files finds.
@Suite struct ManifestReReadTests {
    @Test func manifestCountsMatchTheFiles() throws {
        let (directory, manifest) = try SimulatorTests.run(SimulatorTests.smallOptions(seed: 11), "reread")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = ArchiveReader(root: directory)
        let trustedRoot = try reader.bytes("certs/root.der").base64EncodedString()
        var documents: [String: Int] = [:]
        var broken = 0
        var v2Types: [String: Int] = [:]
        var v1Types: [String: Int] = [:]
        var seenUUIDs = Set<String>()
        var seenV1 = Set<String>()
        var untrusted = 0
        var sandbox = 0
        var tests = 0

        func countV2(_ jws: String) throws {
            let payload = try #require(ArchiveReader.jwsPayload(jws))
            let header = try #require(ArchiveReader.jwsHeader(jws))
            let x5c = try #require(header["x5c"] as? [String])
            #expect(x5c.count == 3)
            let data = try #require(payload["data"] as? [String: Any])
            for key in ["signedTransactionInfo", "signedRenewalInfo"] {
                if let nested = data[key] as? String {
                    #expect(nested.split(separator: ".", omittingEmptySubsequences: false).count == 3)
                    #expect(
                        ArchiveReader.jwsPayload(nested)?["signedDate"] as? Int64 == payload["signedDate"] as? Int64)
                }
            }
            if x5c[2] != trustedRoot { untrusted += 1; return }
            let type = try #require(payload["notificationType"] as? String)
            if data["environment"] as? String == "Sandbox" { sandbox += 1; return }
            if type == "TEST" { tests += 1; return }
            guard data["bundleId"] as? String == manifest.bundleId else { return }
            let uuid = try #require(payload["notificationUUID"] as? String)
            guard seenUUIDs.insert(uuid).inserted else { return }
            let key = type + ((payload["subtype"] as? String).map { "/" + $0 } ?? "")
            v2Types[key, default: 0] += 1
        }

        for file in try reader.files() where file.hasPrefix("notifications/") {
            for line in try reader.lines(file) {
                guard var object = ArchiveReader.json(line) as? [String: Any] else { broken += 1; continue }
                if let body = object["body"] as? [String: Any], object["receivedAt"] != nil { object = body }
                if let jws = object["signedPayload"] as? String {
                    documents["v2_notification", default: 0] += 1
                    try countV2(jws)
                } else if let type = object["notification_type"] as? String {
                    documents["v1_notification", default: 0] += 1
                    if object["environment"] as? String == "Sandbox" { sandbox += 1; continue }
                    guard object["bid"] as? String == manifest.bundleId else { continue }
                    let canonical = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    if seenV1.insert(String(decoding: canonical, as: UTF8.self)).inserted {
                        v1Types[type, default: 0] += 1
                    }
                } else {
                    Issue.record("unknown shape in \(file)")
                }
            }
        }
        for file in try reader.files() where file.hasPrefix("history/") {
            let page = try #require(ArchiveReader.json(try reader.text(file)) as? [String: Any])
            let items = try #require(page["notificationHistory"] as? [[String: Any]])
            #expect(page["hasMore"] is Bool && page["paginationToken"] is String)
            documents["notification_history_page", default: 0] += 1
            documents["notification_history_item", default: 0] += items.count
            for item in items {
                #expect((item["sendAttempts"] as? [[String: Any]])?.isEmpty == false)
                try countV2(try #require(item["signedPayload"] as? String))
            }
        }
        var refundEntries = 0
        for file in try reader.files() where file.hasPrefix("refunds/") {
            let page = try #require(ArchiveReader.json(try reader.text(file)) as? [String: Any])
            let entries = try #require(page["signedTransactions"] as? [String])
            documents["refund_history_page", default: 0] += 1
            refundEntries += entries.count
            let dates = entries.compactMap { ArchiveReader.jwsPayload($0)?["revocationDate"] as? Int64 }
            #expect(dates.count == entries.count && dates == dates.sorted())
        }
        for line in try reader.lines("orders/order-lookups.jsonl") {
            let object = try #require(ArchiveReader.json(line) as? [String: Any])
            let entries = try #require(object["signedTransactions"] as? [String])
            documents["order_lookup", default: 0] += 1
            documents["order_lookup_transaction", default: 0] += entries.count
        }
        documents["refund_history_transaction"] = refundEntries
        documents = documents.filter { $0.value > 0 }

        #expect(documents == manifest.documents)
        #expect(broken == manifest.brokenLines.values.reduce(0, +))
        #expect(untrusted == manifest.forged["untrustedChain"])
        #expect(sandbox == manifest.sandboxDocuments)
        #expect(tests == manifest.testNotifications)
        #expect(v2Types == manifest.v2NotificationTypes)
        #expect(v1Types == manifest.v1NotificationTypes)
        let accountLines = try reader.lines("accounts.csv")
        #expect(accountLines.first == "app_account_token,account_id")
        #expect(accountLines.count - 1 == manifest.accountRows)
    }
}
