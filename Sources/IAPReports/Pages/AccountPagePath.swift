import IAPFormats

/// Where a flagged account's case page lives: `<month>/accounts/<name>.html`.
///
/// Account IDs come from the data (app account tokens, `accounts.csv`), so they never become a path as they are:
/// the name is a readable prefix of safe characters plus the start of the ID's SHA-256, so `../x`, `a/b`, `CON`,
/// very long IDs and IDs that differ only in case all get distinct, harmless names on every file system.
enum AccountPagePath {
    /// The folder of case pages inside a month folder.
    static let folder = "accounts"

    /// `acct-7_3f2a9c41d0be.html`.
    static func fileName(_ account: String) -> String {
        var prefix = ""
        for scalar in account.unicodeScalars {
            guard prefix.count < 32 else { break }
            switch scalar {
            case "a"..."z", "0"..."9", "-": prefix.unicodeScalars.append(scalar)
            case "A"..."Z": prefix += String(scalar).lowercased()
            default: if !prefix.hasSuffix("_") { prefix += "_" }
            }
        }
        let hash = FileDigest.sha256Hex(of: Array(account.utf8)).prefix(12)
        return (prefix.isEmpty ? "account" : prefix) + "-" + hash + ".html"
    }

    /// The page's path relative to its month folder.
    static func relative(_ account: String) -> String {
        folder + "/" + fileName(account)
    }
}
