import Testing

@testable import IAPReports

@Suite struct AccountPagePathTests {
    @Test(arguments: [
        "../../etc/passwd", "a/b", "CON", "", ".", "..", "x\u{0}y", String(repeating: "z", count: 5000), "app:123",
        "名前",
    ])
    func hostileIDsBecomeHarmlessNames(account: String) {
        let name = AccountPagePath.fileName(account)
        #expect(name.hasSuffix(".html"))
        #expect(!name.contains("/") && !name.hasPrefix("."))
        #expect(
            name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || $0.properties.numericType != nil
                        || "-_.".unicodeScalars.contains($0))
            })
        #expect(name.count <= 32 + 1 + 12 + 5)
    }

    @Test func idsThatDifferOnlyInCaseGetDifferentNames() {
        #expect(AccountPagePath.fileName("Acct-1") != AccountPagePath.fileName("acct-1"))
        #expect(AccountPagePath.fileName("acct-1").lowercased() != AccountPagePath.fileName("ACCT-1").lowercased())
        #expect(AccountPagePath.fileName("acct-1") == AccountPagePath.fileName("acct-1"))
    }
}
