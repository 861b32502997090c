import Foundation
import IAPTestSupport
import Testing

@testable import IAPStore

/// A schema holding someone else's objects that were not tables was taken as empty (a composite
/// type named `transactions` failed mid-migration with "report it"); a schema name over 63 bytes was cut by the
/// server after the check; a role that may read a store but not `CREATE` could not run `status`; `schema=pg_temp`
/// failed with the server's text. Against the real server the tests start.
@Suite struct PostgresSchemaOwnershipTests {
    private func admin() throws -> any StoreEngine {
        try StoreLocation(try TestPostgres.freshStore()).open()
    }

    @Test(arguments: [
        "CREATE TYPE %@.transactions AS (id int)",
        "CREATE SEQUENCE %@.orders_id",
        "CREATE FUNCTION %@.total() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        "CREATE DOMAIN %@.money_amount AS numeric",
        // Before: a schema holding only one of these was taken over (77 tables created in it).
        "CREATE COLLATION %@.bytes (locale = 'C')",
        "CREATE TEXT SEARCH CONFIGURATION %@.plain (COPY = pg_catalog.simple)",
        "CREATE OPERATOR %@.=== (LEFTARG = int, RIGHTARG = int, FUNCTION = int4eq)",
        "CREATE OPERATOR FAMILY %@.ints USING btree",
        "CREATE CONVERSION %@.latin FOR 'LATIN1' TO 'UTF8' FROM iso8859_1_to_utf8",
    ])
    func aSchemaWithSomeoneElsesObjectsIsRefusedAndLeftAsItWas(_ statement: String) throws {
        let schema = "foreign_\(UUID().uuidString.prefix(8).lowercased())"
        let store = try admin()
        try store.write {
            try $0.executeScript("CREATE SCHEMA \(schema); " + statement.replacingOccurrences(of: "%@", with: schema))
        }
        let url = try TestPostgres.serverURL() + "?schema=\(schema)"
        do {
            _ = try StoreLocation(url).open()
            Issue.record("a schema holding another application's object was opened")
        } catch let error as StoreError {
            guard case .notAStore = error else { Issue.record("expected notAStore, got \(error)"); return }
            #expect(error.exitCode == 64)
        }
        let created = try store.read {
            try $0.value(
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = 'iaplens_migrations'",
                [.text(schema)]
            ).integer
        }
        #expect(created == 0, "nothing was created in it")
    }

    @Test(arguments: [String(repeating: "s", count: 64), "pg_temp", "pg_toast", "a%00b", "a%0Ab"])
    func aSchemaNamePostgreSQLWouldNotKeepIsAUsageError(_ name: String) throws {
        let url = try TestPostgres.serverURL() + "?schema=\(name)"
        do {
            _ = try StoreLocation(url).open()
            Issue.record("schema=\(name) was accepted")
        } catch let error as StoreError {
            guard case .invalidLocation = error else { Issue.record("expected invalidLocation, got \(error)"); return }
            #expect(error.exitCode == 64)
        }
    }

    @Test func aRoleThatMayOnlyReadOpensACurrentStore() throws {
        let url = try TestPostgres.freshStore()
        let schema = String(url.split(separator: "=").last ?? "")
        let store = try StoreLocation(url).open()  // created and migrated by the owner
        let reader = try TestPostgres.role(
            "reader", schema: schema, run: { sql in try store.write { try $0.executeScript(sql) } },
            grants: { role in
                "GRANT USAGE ON SCHEMA \(schema) TO \(role); GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(role);"
            })
        let opened = try StoreLocation(reader).open()
        #expect(
            try opened.read { try $0.value("SELECT count(*) FROM iaplens_migrations").integer }
                == Int64(PostgresMigrations.all.count))
        // A new schema it may not create: the missing grant, named; exit 77 (a permission), not "rerun".
        do {
            _ = try StoreLocation(reader + "_new").open()  // the URL ends with the schema's name
            Issue.record("a role without CREATE made a schema")
        } catch let error as StoreError {
            #expect(error.exitCode == 77)
            #expect(
                error.description.contains("may not create the schema")
                    && error.description.contains("GRANT CREATE ON DATABASE"), "\(error)")
            #expect(!error.description.contains("Rerun;"))
        }
        // Writing with it (a read-only role) is a missing grant too, named, exit 77.
        do {
            _ = try opened.write { try $0.execute("INSERT INTO fetch_cursors (name, value) VALUES ('x', 'y')") }
            Issue.record("a read-only role wrote")
        } catch let error as StoreError {
            #expect(error.exitCode == 77)
            #expect(error.description.contains("GRANT SELECT, INSERT, UPDATE, DELETE ON fetch_cursors"), "\(error)")
        }
    }

    @Test func aRoleWithoutCreateOnItsSchemaIsToldTheGrant() throws {
        let url = try TestPostgres.freshStore()
        let schema = String(url.split(separator: "=").last ?? "")
        let owner = try StoreLocation(url).open()
        try owner.write { try $0.executeScript("DROP TABLE IF EXISTS iaplens_probe") }
        // A schema that exists, empty, where the role has USAGE but not CREATE.
        let empty = schema + "_empty"
        try owner.write { try $0.executeScript("CREATE SCHEMA \(empty)") }
        let role = try TestPostgres.role(
            "nocreate", schema: empty, run: { sql in try owner.write { try $0.executeScript(sql) } },
            grants: { role in "GRANT USAGE ON SCHEMA \(empty) TO \(role);" })
        do {
            _ = try StoreLocation(role).open()
            Issue.record("a role without CREATE on the schema created a store in it")
        } catch let error as StoreError {
            #expect(error.exitCode == 77, "\(error)")
            #expect(error.description.contains("GRANT USAGE, CREATE ON SCHEMA \(empty)"), "\(error)")
        }
    }

    /// A URL without the password the server asks for failed as any connection does (1, "rerun"), which a rerun
    /// cannot mend: now a configuration error (64) saying where a password goes, decided by libpq, not by the
    /// server's wording (which follows its language).
    @Test func aMissingPasswordIsAConfigurationError() throws {
        let url = try TestPostgres.serverURL()
        let withoutPassword = url.replacing(/:[^:@\/]*@/, with: "@", maxReplacements: 1)
        guard withoutPassword != url else {
            Issue.record("the test server's URL carries no password: \(url)")
            return
        }
        // No password from ~/.pgpass either (the test scripts set no PGPASSWORD).
        let passwordless = withoutPassword + (withoutPassword.contains("?") ? "&" : "?") + "passfile=/nonexistent"
        do {
            _ = try StoreLocation(passwordless).open()
            Issue.record("a connection without the password the server asks for succeeded")
        } catch let error as StoreError {
            guard case .invalidLocation = error else { Issue.record("expected invalidLocation, got \(error)"); return }
            #expect(error.exitCode == 64)
            #expect(error.description.contains("the server asks for a password and none was given"), "\(error)")
        }
    }
}

/// When the server dropped the lock's connection (an idle-session reaper, a NAT timeout), the run
/// carried on and a second run could start beside it.
@Suite struct PostgresLostLockTests {
    @Test func aRunWhoseLockWasTakenAwayCommitsNothingMore() throws {
        let url = try TestPostgres.freshStore()
        let location = try StoreLocation(url)
        // A command name of its own: the tests run in one process, and ending every "run" lock of this pid would end
        // the locks of other tests running beside this one.
        let lock = try location.lockForRun(command: "lost-lock-probe")
        let store = try location.open()
        try store.write { try $0.executeScript("CREATE TABLE lost_lock_probe (n int)") }
        // The server ends the lock's session, as idle_session_timeout or a reaper would.
        let admin = try StoreLocation(try TestPostgres.serverURL()).open()
        let ended = try admin.read {
            try $0.value(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE ?",
                [.text("pid \(getpid()) (iaplens lost-lock-probe%")]
            ).integer
        }
        try #require(ended == 1)
        do {
            _ = try store.write { try $0.execute("INSERT INTO lost_lock_probe VALUES (1)") }
            Issue.record("a write committed after the run lost its lock")
        } catch let error as StoreError {
            guard case .lockLost = error else { Issue.record("expected lockLost, got \(error)"); return }
            #expect(error.exitCode == 75)
            #expect(error.description.contains("session-mode pooler"))
        }
        #expect(try store.read { try $0.value("SELECT count(*) FROM lost_lock_probe").integer } == 0)
        // Another run can take the lock now, and this one knows it lost it.
        _ = try location.lockForRun(command: "run")
        withExtendedLifetime(lock) {}
    }
}
