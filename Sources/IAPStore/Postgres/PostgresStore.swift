import Foundation

/// The store on a PostgreSQL server: the same tables as ``SQLiteStore`` in one schema of one database
/// (`?schema=` of the URL), so several apps can share a database without mixing. Opening creates the schema and
/// runs the migrations (``PostgresSchema``); the one connection is handed to one caller at a time.
public final class PostgresStore: StoreEngine, @unchecked Sendable {
    // @unchecked: `connection` is only touched under `lock`.
    public let url: PostgresURL
    private let connection: PostgresConnection
    private let lock = NSLock()

    /// Connects, creates the schema if needed and migrates it.
    /// - Throws: ``StoreError`` when the server cannot be reached or the schema was migrated by a newer iaplens.
    public init(url: PostgresURL) throws {
        self.url = url
        connection = try Self.connect(url)
        // Another application's schema (say `public` of a shared database) is refused before anything is created in
        // it: any object at all (tables, views, sequences, foreign tables, functions, types, domains) that is not
        // iaplens's own store makes it someone else's.
        let objects = try Self.objects(in: url.schema, connection)
        if !objects.isEmpty && !objects.contains("iaplens_migrations") {
            throw StoreError.notAStore(path: url.redacted, tables: objects)
        }
        let schemaExists =
            try connection.value(
                "SELECT count(*) FROM pg_namespace WHERE nspname = ?", [.text(url.schema)]
            ).integer ?? 0 > 0
        if !schemaExists {
            do {
                try connection.executeScript("CREATE SCHEMA \(connection.dialect.quoted(url.schema))")
            } catch let error as StoreError where error.description.contains("SQLSTATE 42501") {
                throw StoreError.permissionDenied(
                    path: url.redacted,
                    reason: "the role may not create the schema \(url.schema) in this database (SQLSTATE 42501)",
                    grant:
                        "CREATE SCHEMA \(url.schema) AUTHORIZATION <this role> (once, as a role that may), or GRANT CREATE ON DATABASE <database> TO <this role>"
                )
            }
        }
        try connection.use(schema: url.schema)
        try migrate()
    }

    /// The names of every object in `schema` a store could collide with or that shows the schema is in use.
    static func objects(in schema: String, _ connection: PostgresConnection) throws -> [String] {
        try connection.rows(
            """
            SELECT c.relname::text FROM pg_class AS c INNER JOIN pg_namespace AS n ON n.oid = c.relnamespace
            WHERE n.nspname = ?
            UNION
            SELECT p.proname::text FROM pg_proc AS p INNER JOIN pg_namespace AS n ON n.oid = p.pronamespace
            WHERE n.nspname = ?
            UNION
            SELECT t.typname::text FROM pg_type AS t INNER JOIN pg_namespace AS n ON n.oid = t.typnamespace
            WHERE n.nspname = ? AND t.typrelid = 0 AND t.typelem = 0
            UNION
            SELECT 'collation ' || collname::text FROM pg_collation WHERE collnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'text search configuration ' || cfgname::text FROM pg_ts_config WHERE cfgnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'text search dictionary ' || dictname::text FROM pg_ts_dict WHERE dictnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'text search parser ' || prsname::text FROM pg_ts_parser WHERE prsnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'text search template ' || tmplname::text FROM pg_ts_template WHERE tmplnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'operator ' || oprname::text FROM pg_operator WHERE oprnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'operator family ' || opfname::text FROM pg_opfamily WHERE opfnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'operator class ' || opcname::text FROM pg_opclass WHERE opcnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'conversion ' || conname::text FROM pg_conversion WHERE connamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'extension ' || extname::text FROM pg_extension WHERE extnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            UNION
            SELECT 'statistics object ' || stxname::text FROM pg_statistic_ext WHERE stxnamespace = (SELECT oid FROM pg_namespace WHERE nspname = ?)
            ORDER BY 1
            """, Array(repeating: SQLValue.text(schema), count: 14)
        ).compactMap { $0[0].text }
    }

    /// True when the URL's schema holds an iaplens store; creates nothing.
    public static func exists(url: PostgresURL) throws -> Bool {
        let connection = try connect(url)
        return try connection.value(
            "SELECT to_regclass(?) IS NOT NULL", [.text(connection.dialect.quoted(url.schema) + ".store_settings")]
        ).bool ?? false
    }

    /// The session's buffers for TEMP tables (see ``connect(_:)``); Documentation/Performance.md, "The report on every core".
    static let modelTemporaryBuffers = "256MB"

    /// How often a session's server checks, during a statement, that iaplens is still there (PostgreSQL 14 and later).
    static let clientCheckInterval = "2s"

    static func connect(_ url: PostgresURL) throws -> PostgresConnection {
        let connection = try PostgresConnection(
            connectionString: url.connectionString, displayName: url.redacted, scrub: url.scrub)
        // Nothing below an error is sent: libpq would print a notice or warning raw on standard error, outside
        // iaplens's log lines (`drop … if exists` of a missing object; `ANALYZE` skipping a table the role does not own,
        // which the statement that needs the ownership then says as a missing grant). UTC so no date function
        // depends on the server's zone.
        // No JIT: the server compiles a query when its estimated cost is high, and iaplens's estimates are high for
        // cheap statements (a batch's lookups plan with sequential scans priced out; the models' CTEs). Compiling
        // cost 80 ms per statement, for statements that run in well under 1 ms: 17 of the 20 s of a 100k load.
        try connection.executeScript("SET client_min_messages TO error; SET TIME ZONE 'UTC'; SET jit = off")
        try useServerEncoding(connection, url)
        // The models' intermediate tables are TEMP tables, which live in the session's own buffers (`temp_buffers`,
        // 8 MB by default, settable only before the session touches one): at 1M notifications each is 100–200 MB, so
        // every look-up into one read its page back from the kernel. Taken only as the tables grow.
        try connection.executeScript("SET temp_buffers = '\(modelTemporaryBuffers)'")
        // A statement whose client died runs on until the server next writes to it: a killed analyze left a model's
        // query running for over ten minutes, and the next analyze waited behind it (its scratch schema's lock).
        // Since PostgreSQL 14 the server looks for a client gone while a statement runs, and ends the statement.
        if try connection.integer("SELECT current_setting('server_version_num')::int") ?? 0 >= 140_000 {
            try connection.executeScript("SET client_connection_check_interval = '\(clientCheckInterval)'")
        }
        return connection
    }

    /// iaplens's text is UTF-8 and goes to the server as it is: the session speaks the server's own encoding, so
    /// nothing converts it. A client encoding of another (`PGCLIENTENCODING`, `client_encoding=` in the URL) had the
    /// server convert iaplens's bytes and refuse a run midway as "an invalid byte sequence". UTF-8 and the one-byte
    /// encodings (`SQL_ASCII`, `LATIN1`, …) hold any UTF-8 bytes and give them back unchanged; another multi-byte
    /// encoding (`EUC_JP`, …) cannot, and is refused before anything is written.
    static func useServerEncoding(_ connection: PostgresConnection, _ url: PostgresURL) throws {
        let row = try connection.rows(
            """
            SELECT setting, pg_encoding_max_length(pg_char_to_encoding(setting))
            FROM (SELECT current_setting('server_encoding') AS setting) AS server
            """
        ).first
        let encoding = row?[0].text ?? "UTF8"
        guard encoding == "UTF8" || row?[1].integer == 1 else {
            throw StoreError.invalidLocation(
                url.redacted,
                reason: "its database's encoding is \(encoding), which cannot hold the UTF-8 text iaplens stores; "
                    + "create the database with ENCODING 'UTF8' (createdb -E UTF8 -T template0 NAME) and name it in the URL"
            )
        }
        try connection.executeScript("SET client_encoding TO '\(encoding)'")
    }

    private func migrate() throws {
        // An existing store that is current needs no DDL: a role that may only read it can still open it (`status`).
        if try read({ connection in
            guard try connection.value("SELECT to_regclass('iaplens_migrations') IS NOT NULL").bool == true else {
                return false
            }
            let applied = Set(try connection.rows("SELECT name FROM iaplens_migrations").compactMap { $0[0].text })
            let known = Set(PostgresMigrations.all.map(\.name))
            if !applied.isSubset(of: known) { throw StoreError.newerSchema(path: url.redacted) }
            return applied == known
        }) {
            return
        }
        try write { connection in
            // Two processes opening a new store at once: the second waits here, then finds the migrations applied.
            try connection.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('iaplens migrate ' || ?, 0))", [.text(url.schema)])
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS iaplens_migrations (
                    name text collate "C" PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let applied = Set(try connection.rows("SELECT name FROM iaplens_migrations").compactMap { $0[0].text })
            let known = Set(PostgresMigrations.all.map(\.name))
            if !applied.isSubset(of: known) { throw StoreError.newerSchema(path: url.redacted) }
            for migration in PostgresMigrations.all where !applied.contains(migration.name) {
                for statement in migration.statements { try connection.executeScript(statement) }
                try connection.execute("INSERT INTO iaplens_migrations (name) VALUES (?)", [.text(migration.name)])
            }
        }
    }

    // MARK: - StoreEngine

    public var dialect: SQLDialect { .postgres }
    public var schema: String { url.schema }
    public var displayName: String { url.redacted }

    public func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try lock.withLock { try body(connection) }
    }

    public func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try lock.withLock { try inTransaction(body) }
    }

    /// Settings for the models' transaction only:
    /// - fresh planner statistics of the fact tables whose size moved since they were last gathered
    ///   (``PostgresPlannerStatistics``): the models join them by key, and with the statistics autovacuum had not
    ///   yet gathered after a load, one correlated lookup planned as a scan took 59 s at 100k documents instead of
    ///   0.8 s;
    /// - no JIT compilation (off for the whole session, see ``connect(_:)``): the models' row estimates through
    ///   CTEs are large enough to trigger it, and compiling took about a second per model for queries that run in
    ///   milliseconds;
    /// - 64 MB of work memory per sort or hash, instead of the server's 4 MB, which spills them to disk;
    /// - 256 MB to build each model's indexes (its largest, on a million transactions, sorts about 100 MB).
    public func buildModels<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try lock.withLock {
            try inTransaction { connection in
                try connection.executeScript("SET LOCAL work_mem = '64MB'; SET LOCAL maintenance_work_mem = '256MB'")
                _ = try PostgresPlannerStatistics.refresh(Self.factTables, schema: url.schema, in: connection)
                return try body(connection)
            }
        }
    }

    /// One session per worker, building in a scratch schema (``PostgresModelWorkspace``); nil for fewer than 2
    /// workers, or when that schema cannot be iaplens's.
    public func makeModelWorkspace(workers: Int) throws -> (any ModelWorkspace)? {
        guard workers >= 2 else { return nil }
        return try PostgresModelWorkspace.open(store: self, count: workers)
    }

    /// The tables ingest and the reference loaders write.
    static let factTables = [
        "source_files", "documents", "quarantine", "notifications", "transaction_versions", "transactions",
        "renewal_infos", "order_lookups", "order_lookup_transactions", "ref_products", "ref_accounts",
        "apple_report_rows",
        "apple_report_days",
    ]

    /// Runs `body` with the connection itself (the document writer's COPY), in one transaction.
    func writeWithConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try lock.withLock {
            try inTransaction { _ in try body(connection) }
        }
    }

    private func inTransaction<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try connection.executeScript("BEGIN")
        do {
            let result = try body(connection)
            // The run's lock still held, checked last: a run that lost it commits nothing more.
            try PostgresRunLock.held(for: url)?.check()
            try connection.executeScript("COMMIT")
            return result
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }

    public func makeDocumentWriter() -> any DocumentWriter {
        PostgresDocumentWriter(store: self)
    }

    /// Builds any secondary index a bulk load dropped (after the load, or after a run killed during one). Only a
    /// missing one is created: PostgreSQL asks for the table's ownership before it looks whether an index exists, so
    /// `CREATE INDEX IF NOT EXISTS` of every index would refuse a role that may write the tables without owning them.
    public func finishInterruptedWork() throws {
        try write { connection in
            let present = Set(
                try connection.rows("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
                    .compactMap { $0[0].text })
            for index in PostgresSchema.secondaryIndexes where !present.contains(index.name) {
                try connection.executeScript(
                    index.definition.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS "))
            }
        }
    }
}
