import IAPStore
import IAPTestSupport
import Testing

/// `--accounts` on both engines: each token's first row in file order is the mapping, and loading the same mapping
/// again (however its rows arrive) changes nothing, so the built models stay current.
@Suite("ReferenceWriter")
struct ReferenceWriterTests {
    @Test(arguments: StoreKind.allCases)
    func eachTokenKeepsItsFirstRowAndTheSameMappingAgainIsNoChange(engine: StoreKind) throws {
        // Given a mapping whose rows arrive out of line order, with one token listed twice in different case
        let store = try engine.freshStore()
        let writer = ReferenceWriter(store: store)
        let rows = [
            AccountReferenceRow(line: 4, appAccountToken: "AAAA-1", accountId: "acct-late"),
            AccountReferenceRow(line: 2, appAccountToken: "aaaa-1", accountId: "acct-first"),
            AccountReferenceRow(line: 3, appAccountToken: "bbbb-2", accountId: "acct-b"),
        ]
        // When it is loaded
        try writer.replaceAccounts(rows)
        let version = try store.read { try StoreSettings.dataVersion($0) }
        // Then the lower-cased token keeps the row of the earlier line
        #expect(try Self.mapping(store) == ["2 aaaa-1 acct-first", "3 bbbb-2 acct-b"])
        // When the same mapping is loaded again, in another order: nothing is written
        try writer.replaceAccounts(rows.reversed())
        #expect(try store.read { try StoreSettings.dataVersion($0) } == version)
        // When one account changes: the mapping is replaced and the models are stale
        try writer.replaceAccounts([
            rows[1], AccountReferenceRow(line: 3, appAccountToken: "bbbb-2", accountId: "acct-c"),
        ])
        #expect(try Self.mapping(store) == ["2 aaaa-1 acct-first", "3 bbbb-2 acct-c"])
        #expect(try store.read { try StoreSettings.dataVersion($0) } > version)
    }

    private static func mapping(_ store: any StoreEngine) throws -> [String] {
        try store.read { connection in
            try connection.rows("SELECT line, app_account_token, account_id FROM ref_accounts ORDER BY line").map {
                "\($0[0].integer ?? 0) \($0[1].text ?? "") \($0[2].text ?? "")"
            }
        }
    }
}
