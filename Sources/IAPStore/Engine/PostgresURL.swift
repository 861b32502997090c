import Foundation

/// A `postgres://` / `postgresql://` URL as `--database` takes it: libpq's own URI format (user, password, host,
/// port, database, `sslmode` and every other libpq parameter), plus `schema`, which libpq does not know and
/// iaplens takes out: the schema that holds this store, so several apps can share one database. Without it the
/// store is in `public`. A password not in the URL comes, as with every libpq client, from `PGPASSWORD` or
/// `~/.pgpass`.
public struct PostgresURL: Sendable, Equatable {
    /// The URL as given.
    public let text: String
    /// The schema of the store.
    public let schema: String
    /// What libpq connects with: the URL without `schema`, its scheme in lower case (libpq knows no other), with
    /// iaplens's defaults for `connect_timeout` and `application_name` when the URL sets neither.
    public let connectionString: String
    /// Every spelling of the password the URL holds (as written and decoded), scrubbed from whatever libpq says.
    public let secrets: [String]

    /// Parses a URL.
    /// - Throws: ``StoreError/invalidLocation(_:reason:)`` when it has no database name, or an empty schema.
    public init(_ text: String) throws(StoreError) {
        self.text = text
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        var schema = "public"
        var kept: [String] = []
        var names: Set<String> = []
        var secrets: [String] = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count == 2 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                if name.lowercased() == "password" && pair.count == 2 && !pair[1].isEmpty {
                    secrets += [String(pair[1]), value]
                }
                if name == "schema" {
                    guard !value.isEmpty else {
                        throw .invalidLocation(
                            Self.redact(text), reason: "schema= is empty; name a schema or leave it out (public)")
                    }
                    if let problem = Self.schemaProblem(value) {
                        throw .invalidLocation(Self.redact(text), reason: problem)
                    }
                    schema = value
                } else {
                    kept.append(String(item))
                    names.insert(name)
                }
            }
        }
        guard let afterScheme = base.range(of: "://") else {
            throw .invalidLocation(Self.redact(text), reason: "expected postgres://user@host:port/database")
        }
        let rest = base[afterScheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/"), !rest[rest.index(after: slash)...].isEmpty else {
            throw .invalidLocation(
                Self.redact(text), reason: "the URL names no database; expected postgres://user@host:port/database")
        }
        if !names.contains("connect_timeout") { kept.append("connect_timeout=10") }
        if !names.contains("application_name") { kept.append("application_name=iaplens") }
        if let userInfo = Self.userInfo(text), let colon = userInfo.firstIndex(of: ":") {
            let password = String(userInfo[userInfo.index(after: colon)...])
            if !password.isEmpty { secrets += [password, password.removingPercentEncoding ?? password] }
        }
        self.schema = schema
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
        self.connectionString = "postgresql://" + rest + "?" + kept.joined(separator: "&")
    }

    /// Why PostgreSQL would not keep `name` as written, or nil: the server cuts names at 63 bytes (two URLs
    /// sharing 63 bytes would be one schema under two locks), reserves `pg_` for its own schemas, and no name may
    /// hold a NUL or another control character.
    static func schemaProblem(_ name: String) -> String? {
        if name.utf8.count > 63 {
            return
                "schema= is \(name.utf8.count) bytes long; PostgreSQL keeps 63 bytes of a name, so choose a schema name of at most 63 bytes"
        }
        if name.hasPrefix("pg_") {
            return
                "schema= \(name.prefix(63)) starts with pg_, which PostgreSQL reserves for its own schemas (pg_temp, pg_toast, pg_catalog); choose another name"
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "schema= holds a control character (a NUL, a newline); choose a name of printable characters"
        }
        return nil
    }

    /// `user:password` before the host: up to the last `@` before the first `/` after the scheme, so that a `?`
    /// or `#` left unencoded in the password still counts as the password's.
    static func userInfo(_ text: String) -> Substring? {
        guard let afterScheme = text.range(of: "://") else { return nil }
        let rest = text[afterScheme.upperBound...]
        let authority = rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return authority[..<at]
    }

    /// `message` with every spelling of the password replaced by `***` (libpq quotes a URL it cannot parse).
    public func scrub(_ message: String) -> String {
        secrets.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// The URL with any password replaced by `***`: what messages, logs and `status` show.
    public var redacted: String { Self.redact(text) }

    static func redact(_ text: String) -> String {
        guard let userInfo = userInfo(text), let colon = userInfo.firstIndex(of: ":") else {
            return redactQueryPassword(text)
        }
        let redacted = String(text[...colon]) + "***" + String(text[userInfo.endIndex...])
        return redactQueryPassword(redacted)
    }

    /// libpq also takes `password=` as a query parameter, whatever its case or percent-encoding (`pass%77ord`).
    private static func redactQueryPassword(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let items = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map {
            item -> String in
            let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let decoded = (String(name).removingPercentEncoding ?? String(name)).lowercased()
            return decoded == "password" ? String(name) + "=***" : String(item)
        }
        return String(text[...question]) + items.joined(separator: "&")
    }
}
