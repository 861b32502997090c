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
    /// What libpq connects with: the URL without `schema`, with iaplens's defaults for `connect_timeout` and
    /// `application_name` when the URL sets neither.
    public let connectionString: String

    /// Parses a URL.
    /// - Throws: ``StoreError/invalidLocation(_:reason:)`` when it has no database name, or an empty schema.
    public init(_ text: String) throws(StoreError) {
        self.text = text
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        var schema = "public"
        var kept: [String] = []
        var names: Set<String> = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count == 2 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                if name == "schema" {
                    guard !value.isEmpty else {
                        throw .invalidLocation(Self.redact(text), reason: "schema= is empty; name a schema or leave it out (public)")
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
        self.schema = schema
        self.connectionString = base + "?" + kept.joined(separator: "&")
    }

    /// The URL with any password replaced by `***`: what messages, logs and `status` show.
    public var redacted: String { Self.redact(text) }

    static func redact(_ text: String) -> String {
        guard let afterScheme = text.range(of: "://") else { return text }
        let authorityEnd = text[afterScheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
        let authority = text[afterScheme.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return redactQueryPassword(text)
        }
        let redacted = String(text[..<authority.index(after: colon)]) + "***" + String(text[at...])
        return redactQueryPassword(redacted)
    }

    /// libpq also takes `password=` as a query parameter.
    private static func redactQueryPassword(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let items = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map {
            $0.hasPrefix("password=") ? "password=***" : String($0)
        }
        return String(text[...question]) + items.joined(separator: "&")
    }
}
