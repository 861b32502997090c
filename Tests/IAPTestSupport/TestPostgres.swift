import Foundation

/// The PostgreSQL server the tests run against: the throwaway cluster `scripts/test.sh` starts (with
/// `scripts/postgres.sh`) and names in `IAPLENS_TEST_POSTGRES_URL`. Each test gets a schema of its own, so tests
/// run in parallel on one server without seeing each other's stores. Without the variable a test fails and says
/// how to run it: no test is skipped because the server is missing.
public enum TestPostgres {
    public static let environmentVariable = "IAPLENS_TEST_POSTGRES_URL"

    /// No server was started for this test run.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "\(TestPostgres.environmentVariable) is not set: run the tests with `bash scripts/test.sh`, which starts a "
                + "throwaway PostgreSQL cluster, or start one with `eval \"$(bash scripts/postgres.sh start)\"`."
        }
    }

    /// The server's URL (no schema).
    public static func serverURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[environmentVariable], !url.isEmpty else { throw Missing() }
        return url
    }

    /// Creates a login role on the test server with `grants` (SQL run as the server's owner, `\(role)` standing for
    /// the role's name) and returns a `--database` URL that connects as it to `schema`: for tests of what a store
    /// does with fewer privileges than its owner's.
    /// - Parameters:
    ///   - prefix: The start of the role's name; a random suffix keeps parallel tests apart.
    ///   - schema: The schema the returned URL names.
    ///   - run: Runs SQL as the owner (a store's `executeScript`).
    ///   - grants: The `GRANT` statements for a role name.
    public static func role(
        _ prefix: String, schema: String, run: (String) throws -> Void, grants: (String) -> String
    ) throws -> String {
        let role = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        let password = "\(prefix)-pw"
        try run("CREATE ROLE \(role) LOGIN PASSWORD '\(password)'")
        // Grants on the shared database update one catalog row: tests running at once may collide ("tuple concurrently
        // updated"), which a second try gets past.
        for attempt in 1...5 {
            do {
                try run("GRANT CONNECT ON DATABASE iaplens_test TO \(role); \(grants(role))")
                break
            } catch  where attempt < 5 && "\(error)".contains("concurrently") {
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
        let server = try serverURL()
        let host = server[server.index(after: server.lastIndex(of: "@")!)...]
        return "postgresql://\(role):\(password)@\(host)?schema=\(schema)"
    }

    /// A `--database` URL naming a new, empty schema of the test server.
    public static func freshStore(_ name: String = #function) throws -> String {
        let safe = name.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(30)
        let suffix = UUID().uuidString.lowercased().prefix(8)
        return try serverURL() + "?schema=t_\(safe)_\(suffix)"
    }
}

/// The two store engines, for tests that run on each.
public enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// A `--database` value for a new store of this kind: a file in `folder`, or a fresh PostgreSQL schema.
    public func freshDatabase(in folder: String, _ name: String = #function) throws -> String {
        switch self {
        case .sqlite: return folder + "/store.sqlite"
        case .postgres: return try TestPostgres.freshStore(name)
        }
    }
}
