import Foundation
import IAPFormats
import Testing

@testable import IAPStore

/// A shipped PostgreSQL migration never changes: stores in the field applied it as it was, and a store built today
/// must be built the same way. Each migration's SHA-256 (its statements joined by a line holding `;`) is written
/// here when it ships; editing a migration fails this test, which says to add a new migration instead.
@Suite struct PostgresMigrationFreezeTests {
    static let shipped: [(name: String, sha256: String)] = [
        ("v1 raw facts", "abb91cbb058c4e5328610ee66d5c9b2062c1f5b937136d256d7507f6759ece3c"),
        ("v2 lineage keys", "20b542a7a6c4ebc4d616004028cbc10a9cba00f6c8123e4c7a78fa99a7c21bf5"),
        ("v3 app transaction ids and extra fields", "c162e4e48a796ab16cb8240fa38c65f6d4efbc0b48acf4c2abd0bf49270d3af6"),
        ("v4 fetch cursors", "8c5dbaf934a0f091b8b76483e18a54ac71d6db6fbe9ee4e9e9e8c8cd2ef0eec2"),
        ("v5 consumption answers", "8e6accf2af6c960f5ecafd6982fcc6405fd71f20a745aa07c13d5e93b49e208c"),
        ("v6 apple financial reports", "d4d6bf406d783f1f0cc285343113ac6c80f4f26314d66f5387cbfaf16ea87d38"),
        ("v7 consumption intents", "622a3fdc70b1bd6ea1bf86b4084530da18a73171aa34d7c4838aa6011ae07d0a"),
        ("v8 verified notification copies", "f30192eee53a47e3f8dff49ec5057be2055abc5a2dd7757a8ef321dff493da2e"),
        ("v9 apple payment summaries", "2c087ad7073f03e98b74db0d8e801f2088481631f4e0b0ca938a0917adb18914"),
        ("v10 consumption refusals", "fd7e079784958c40b31082abfb38c5a047518f7dea2860ece2202111425912f3"),
        ("v11 account reviews", "35bf9cea4bea11df174354400ed3c4594a96014b9f888065d44e1df0a1f29a8a"),
    ]

    static func digest(_ migration: PostgresMigration) -> String {
        let text = Array(migration.statements.joined(separator: "\n;\n").utf8)
        return text.withUnsafeBytes { MemoryDigest.sha256($0) }.map { String(format: "%02x", $0) }.joined()
    }

    @Test func everyShippedMigrationIsExactlyAsShipped() {
        let current = PostgresMigrations.all
        #expect(current.count >= Self.shipped.count, "a shipped migration was removed")
        for (migration, shipped) in zip(current, Self.shipped) {
            #expect(migration.name == shipped.name, "migrations are applied by name: \(shipped.name) was renamed")
            #expect(
                Self.digest(migration) == shipped.sha256,
                "\(shipped.name) changed after it shipped: put it back and add the change as a new migration")
        }
    }

    @Test func aNewMigrationIsRecordedHereWhenItShips() {
        #expect(
            PostgresMigrations.all.count == Self.shipped.count, "add the new migration's name and SHA-256 to shipped")
    }
}
