import IAPTestSupport
import Testing

@testable import IAPFormats

@Suite struct ReferenceFilesTests {
    /// A currency in lower case (`eur`) reads as its code; before, it refused the file.
    @Test func readsProductsWithBOMQuotedCommasAnyColumnOrderAndExtras() throws {
        let folder = try TemporaryFolder()
        let text =
            "\u{FEFF}currency,note,product_id,price_milli,type\r\n"
            + "USD,\"Monthly, with trial\",com.app.monthly,9990,Auto-Renewable Subscription\r\n"
            + "\r\n"
            + "eur,\"multi\nline \"\"note\"\"\",com.app.coins,990,consumable\r\n"
            + "JPY,, com.app.pro ,0,NON_CONSUMABLE"
        let file = try folder.write("products.csv", text)
        let rows = try ReferenceFiles.readProducts(at: file.path)
        #expect(
            rows == [
                ProductCatalogRow(
                    line: 2, productId: "com.app.monthly", type: "Auto-Renewable Subscription", currency: "USD",
                    priceMilli: 9990),
                ProductCatalogRow(
                    line: 4, productId: "com.app.coins", type: "consumable", currency: "EUR", priceMilli: 990),
                ProductCatalogRow(
                    line: 6, productId: "com.app.pro", type: "NON_CONSUMABLE", currency: "JPY", priceMilli: 0),
            ])
        #expect(rows.map(\.csvType) == ["auto_renewable", "consumable", "non_consumable"])
    }

    @Test func reportsEveryBadRowTogether() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "products.csv",
            """
            product_id,type,currency,price_milli
            a,Consumable,USD,100
            b,Consumable,USD,1.99
            ,Consumable,USD,1
            c,Subscription,u5d,-5
            d,Non-Renewing Subscription,USD,99999999999999999999
            e,non_renewing,US,x
            """)
        let error = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readProducts(at: file.path) }
        #expect(error.totalProblems == 5)
        #expect(error.problems.map(\.line) == [3, 4, 5, 6, 7])
        #expect(
            error.problems[0].message
                == #"price_milli "1.99" is not an integer number of milliunits (write 1990 for 1.99)."#)
        #expect(error.problems[1].message == "product_id is empty.")
        #expect(error.problems[2].message.contains(#"type "Subscription" is not a product type"#))
        #expect(error.problems[2].message.contains(#"currency "u5d""#))
        #expect(error.problems[2].message.contains("negative"))
        #expect(error.problems[3].message.contains("more than any App Store price"))
        #expect(error.problems[4].message.contains(#"price_milli "x" is not an integer"#))
        #expect(error.description.hasPrefix("\(file.path) has 5 problems"))
    }

    @Test func singleProblemReadsAsOneSentenceAndListIsCappedAtTwenty() throws {
        let folder = try TemporaryFolder()
        let one = try folder.write(
            "products.csv", "product_id,type,currency,price_milli\na,Consumable,USD,1\nb,Consumable,USD,1.99\n")
        let error = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readProducts(at: one.path) }
        #expect(
            error.description
                == "\(one.path) line 3: price_milli \"1.99\" is not an integer number of milliunits (write 1990 for 1.99)."
        )
        let many = try folder.write(
            "many.csv", "product_id,type,currency,price_milli\n" + String(repeating: "a,Consumable,USD,x\n", count: 25))
        let capped = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readProducts(at: many.path) }
        #expect(capped.problems.count == 20)
        #expect(capped.totalProblems == 25)
        #expect(capped.description.contains("and 5 more"))
    }

    @Test func missingColumnsAreNamed() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("products.csv", "product_id,price\nx,1\n")
        let error = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readProducts(at: file.path) }
        #expect(error.line == 1)
        #expect(error.message.contains("lacks the columns type, currency, price_milli"))
        let empty = try folder.write("accounts.csv", "")
        #expect(throws: ReferenceFileError.self) { try ReferenceFiles.readAccounts(at: empty.path) }
    }

    @Test func badQuotingIsASyntaxErrorWithLine() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("accounts.csv", "app_account_token,account_id\nt1,a1\nt2,\"a\"b\n")
        let error = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readAccounts(at: file.path) }
        #expect(error.line == 3)
        #expect(error.message.contains("cannot be read"))
    }

    @Test func readsAccounts() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "accounts.csv", "account_id,app_account_token\nacc-1,7F3E0C1A-0000-4000-8000-000000000001\n\nacc-2,\"b2\"\n"
        )
        #expect(
            try ReferenceFiles.readAccounts(at: file.path) == [
                AccountMappingRow(line: 2, appAccountToken: "7F3E0C1A-0000-4000-8000-000000000001", accountId: "acc-1"),
                AccountMappingRow(line: 4, appAccountToken: "b2", accountId: "acc-2"),
            ])
        let bad = try folder.write("bad.csv", "app_account_token,account_id\n,acc\nt,\n")
        let error = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readAccounts(at: bad.path) }
        #expect(
            error.problems == [
                .init(line: 2, message: "app_account_token is empty."), .init(line: 3, message: "account_id is empty."),
            ])
        #expect(throws: ReferenceFileError.self) { try ReferenceFiles.readAccounts(at: folder.path + "/missing.csv") }
    }

    /// A token listed twice for the same account is one mapping; for two accounts the file contradicts itself and is
    /// refused, the later line naming the earlier. Before: the first line won silently, whichever was right.
    @Test func aTokenMappedToTwoAccountsIsRefusedNamingBothLines() throws {
        let folder = try TemporaryFolder()
        let same = try folder.write("same.csv", "app_account_token,account_id\nab-1,acc-1\nAB-1,acc-1\n")
        #expect(try ReferenceFiles.readAccounts(at: same.path).map(\.accountId) == ["acc-1", "acc-1"])
        let file = try folder.write(
            "accounts.csv", "app_account_token,account_id\nab-1,acc-1\nab-2,acc-2\nAB-1,acc-9\nab-2, acc-2\n")
        let error = try #require(throws: ReferenceFileError.self) { try ReferenceFiles.readAccounts(at: file.path) }
        #expect(error.problems.map(\.line) == [4, 5])
        #expect(
            error.problems.first?.message
                == "app_account_token AB-1 is mapped to \"acc-9\" here and to \"acc-1\" on line 2; a token belongs to one account: keep the right row."
        )
        #expect(error.problems.last?.message.contains("\" acc-2\" here and to \"acc-2\" on line 3") == true)
    }

    /// ` =1+1` and `\t=1+1` were trimmed into one account. Account IDs stay exactly as written; tokens,
    /// UUIDs compared lower-cased, are trimmed.
    @Test func accountIdsAreKeptExactlyAsWritten() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "accounts.csv", "app_account_token,account_id\n t1 , =1+1\nt2,\t=1+1\r\nt3,\" q \"\n")
        #expect(
            try ReferenceFiles.readAccounts(at: file.path) == [
                AccountMappingRow(line: 2, appAccountToken: "t1", accountId: " =1+1"),
                AccountMappingRow(line: 3, appAccountToken: "t2", accountId: "\t=1+1"),
                AccountMappingRow(line: 4, appAccountToken: "t3", accountId: " q "),
            ])
    }
}
