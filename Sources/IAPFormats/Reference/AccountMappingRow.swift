/// One row of `accounts.csv` (`app_account_token,account_id`).
public struct AccountMappingRow: Sendable, Equatable {
    /// 1-based line in the file where the row starts (the header is line 1).
    public let line: Int
    /// The `appAccountToken` as written (the reports compare tokens lower-cased).
    public let appAccountToken: String
    /// Your own account identifier.
    public let accountId: String

    /// Creates a row.
    public init(line: Int, appAccountToken: String, accountId: String) {
        self.line = line
        self.appAccountToken = appAccountToken
        self.accountId = accountId
    }
}
