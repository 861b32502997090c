import Testing

@testable import IAPStore

/// The pieces of the PostgreSQL engine that need no server: the URL, placeholders, COPY text, array literals.
@Suite struct PostgresPartsTests {
    @Test func aURLKeepsLibpqParametersTakesTheSchemaOutAndNeverShowsThePassword() throws {
        let url = try PostgresURL(
            "postgresql://app:s3cr%40t@db.internal:6432/iap?sslmode=require&schema=com_example_app")
        #expect(url.schema == "com_example_app")
        #expect(url.connectionString.hasPrefix("postgresql://app:s3cr%40t@db.internal:6432/iap?sslmode=require&"))
        #expect(!url.connectionString.contains("schema="))
        #expect(url.connectionString.contains("connect_timeout=10"))
        #expect(url.redacted == "postgresql://app:***@db.internal:6432/iap?sslmode=require&schema=com_example_app")
        #expect(try PostgresURL("postgres://u@h/d").schema == "public")
        #expect(try PostgresURL("postgres://u@h/d?password=x").redacted == "postgres://u@h/d?password=***")
        #expect(throws: StoreError.self) { try PostgresURL("postgres://u@h") }
        #expect(throws: StoreError.self) { try PostgresURL("postgres://u@h/d?schema=") }
    }

    /// An upper-case scheme reached libpq, which printed the URL with its password; `pass%77ord=` and
    /// an unencoded `?` in the password were shown as they were.
    @Test func thePasswordNeverShowsWhateverItsSpelling() throws {
        let upper = try PostgresURL("POSTGRES://u:hunter2@127.0.0.1:1/d?connect_timeout=2")
        #expect(upper.connectionString.hasPrefix("postgresql://u:hunter2@127.0.0.1:1/d?"))
        #expect(
            upper.scrub("missing \"=\" after \"POSTGRES://u:hunter2@127\"")
                == "missing \"=\" after \"POSTGRES://u:***@127\"")
        #expect(try PostgresURL("postgres://u@h/d?pass%77ord=hunter2").redacted == "postgres://u@h/d?pass%77ord=***")
        #expect(try PostgresURL("postgres://u@h/d?PASSWORD=hunter2").redacted == "postgres://u@h/d?PASSWORD=***")
        #expect(try PostgresURL("postgres://u@h/d?pass%77ord=hun%74er2").scrub("x hunter2 y") == "x *** y")
        do {
            _ = try PostgresURL("postgres://u:hun?ter2@h/d")
            Issue.record("a URL cut by an unencoded ? names no database")
        } catch {
            #expect(!"\(error)".contains("ter2") && !"\(error)".contains("hun"), "\(error)")
        }
        do {
            _ = try StoreLocation("POSTGRES://user:hunter2@127.0.0.1:1/iap?connect_timeout=2").open()
            Issue.record("connecting to a closed port must fail")
        } catch {
            #expect(!"\(error)".contains("hunter2"), "\(error)")
        }
    }

    @Test func aDatabaseValueIsAFileUnlessItIsAPostgresURL() throws {
        #expect(try StoreLocation("reports/app.sqlite") == .sqlite(path: "reports/app.sqlite"))
        #expect(try StoreLocation("/var/lib/postgres.sqlite") == .sqlite(path: "/var/lib/postgres.sqlite"))
        guard case .postgres(let url) = try StoreLocation("POSTGRES://u:p@h:5432/d?schema=x") else {
            Issue.record("a postgres URL must select PostgreSQL")
            return
        }
        #expect(url.schema == "x")
        #expect(try StoreLocation("postgresql://u:p@h/d").description == "postgresql://u:***@h/d")
        // What is left of `"$URL?schema=app"` when the variable is unset: refused, not a SQLite file named after it.
        for leftover in ["?schema=app", " ?schema=app&password=hunter2", ""] {
            #expect {
                _ = try StoreLocation(leftover)
            } throws: { error in
                guard case .invalidLocation = error as? StoreError else { return false }
                return "\(error)".contains("unset variable?") && !"\(error)".contains("hunter2")
            }
        }
        // libpq's key=value form: before, taken as a path, it made a SQLite file named `host=db port=…` and ran
        // there. Now refused with the URL it stands for, its password never repeated.
        for (value, url) in [
            (
                "host=db.internal port=5433 dbname=app user=etl password='hunter 2' sslmode=require",
                "postgres://etl@db.internal:5433/app?sslmode=require"
            ),
            ("dbname=app", "postgres://localhost/app"),
        ] {
            #expect {
                _ = try StoreLocation(value)
            } throws: { error in
                guard case .invalidLocation = error as? StoreError else { return false }
                return "\(error)".contains("key=value connection string; iaplens takes PostgreSQL as a URL: \(url)")
                    && !"\(error)".contains("hunter")
            }
        }
        // A path that only looks a little like one stays a path.
        for path in ["./host=1.sqlite", "hosts.sqlite", "data/user=etl.sqlite"] {
            #expect(try StoreLocation(path) == .sqlite(path: path))
        }
    }

    @Test func aServerThatCannotBeReachedIsAnErrorThatNamesItWithoutThePassword() throws {
        // Port 1 on loopback refuses at once. (A failed connection used to free libpq's handle twice and crash.)
        let location = try StoreLocation("postgres://user:secret@127.0.0.1:1/iap?connect_timeout=2")
        for attempt in [
            { _ = try location.open() }, { _ = try location.lockForRun(command: "run") },
            { _ = try location.storeExists() },
        ] {
            do {
                try attempt()
                Issue.record("connecting to a closed port must fail")
            } catch let error as StoreError {
                guard case .cannotOpen = error else { Issue.record("expected cannotOpen, got \(error)"); continue }
                #expect(error.description.contains("127.0.0.1"))
                #expect(!error.description.contains("secret"))
                #expect(!error.description.contains("\n") && !error.description.contains("\t"))
                #expect(!error.description.contains("?.") && !error.description.contains(".."), "\(error.description)")
                #expect(error.exitCode == 1)
            }
        }
    }

    @Test func placeholdersAreNumberedOutsideQuotesAndComments() {
        let sql = "select ?, '?', \"a?\" -- why?\n, ? from t where x = ?"
        #expect(
            PostgresConnection.numberingPlaceholders(sql) == "select $1, '?', \"a?\" -- why?\n, $2 from t where x = $3")
    }

    @Test func copyTextEscapesWhatTheFormatReservesAndMarksNull() {
        var rows = CopyTextEncoder()
        rows.add("a\tb\\c\nd\re")
        rows.add(nil as String?)
        rows.add(Int64(-5))
        rows.add(true)
        rows.endRow()
        rows.add("nul\u{0}here")
        rows.endRow()
        #expect(String(decoding: rows.bytes, as: UTF8.self) == "a\\tb\\\\c\\nd\\re\t\\N\t-5\t1\nnul\u{FFFD}here\n")
        #expect(rows.rowCount == 2)
    }

    @Test func arrayLiteralsQuoteEveryElement() {
        #expect(PostgresTransactionWriter.arrayLiteral(["1", "a\"b", "c\\d", "x,y"]) == #"{"1","a\"b","c\\d","x,y"}"#)
    }
}

/// Before: `" postgres://…"` (a leading space), `postgresql+psycopg2://…` and `pgsql://…` were taken as SQLite paths,
/// and the password appeared in the messages. After: a value with spaces around a PostgreSQL URL is that URL; any other
/// URL is refused with its password masked, and never becomes a file.
@Suite struct NearMissDatabaseURLTests {
    @Test func spacesAroundAPostgreSQLURLAreTrimmed() throws {
        guard case .postgres(let url) = try StoreLocation(" postgres://u:s3cret@db.example:5432/iap?schema=app ") else {
            Issue.record("a PostgreSQL URL with spaces around it was taken as a file")
            return
        }
        #expect(url.schema == "app" && !url.redacted.contains("s3cret"))
    }

    @Test(arguments: [
        "postgresql+psycopg2://u:s3cret@db.example/iap", "pgsql://u:s3cret@db.example/iap", " mysql://u:s3cret@h/db",
        "PGSQL://u:s3cret@db.example/iap?schema=x",
    ])
    func anyOtherURLIsRefusedWithItsPasswordMasked(_ value: String) throws {
        do {
            _ = try StoreLocation(value)
            Issue.record("\(value) was taken as a file path")
        } catch {
            guard case .invalidLocation = error else { Issue.record("expected invalidLocation, got \(error)"); return }
            #expect(!error.description.contains("s3cret"), "\(error)")
            #expect(error.description.contains("***") && error.exitCode == 64, "\(error)")
        }
    }

    @Test func aPathIsStillAPath() throws {
        #expect(try StoreLocation("data/app.sqlite") == .sqlite(path: "data/app.sqlite"))
        #expect(try StoreLocation("/var/lib/iaplens/app:2.sqlite") == .sqlite(path: "/var/lib/iaplens/app:2.sqlite"))
    }
}
