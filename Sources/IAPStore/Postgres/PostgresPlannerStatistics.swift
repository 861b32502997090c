/// Fresh planner statistics for the fact tables, gathered only where the data moved: at the end of a bulk load
/// (``PostgresDocumentWriter/finishIngest()``), and before the models build, which then find them fresh unless
/// a smaller load or the reference files moved a table since.
///
/// The models join the fact tables by key, and a plan made without statistics can be ruinous (one correlated
/// look-up planned as a scan took 59 s at 100k documents instead of 0.8 s). But `ANALYZE` of every fact table
/// took 3.9 s of a 45 s analyze at 1M notifications, on every run, also when the run added a handful of rows to a
/// million. So a table is analysed when the server holds no statistics for it (a new store, or one restored onto
/// another server) or when its size on disk moved by more than a tenth since iaplens last analysed it: the rule of
/// the server's own autovacuum (`autovacuum_analyze_scale_factor`), which cannot be relied on to have run yet
/// after a load. The size at each `ANALYZE` is kept in `store_settings` (`planner_statistics.<table>`), in the
/// transaction that gathers them, so a run that fails leaves no record of statistics it did not gather.
/// Documentation/Performance.md, "The report on every core".
enum PostgresPlannerStatistics {
    /// Growth (or shrinkage) of a table's size, as a fraction, past which its statistics are gathered again.
    static let changedFraction = 0.1

    /// Analyses the tables of `tables` (in the connection's schema) whose statistics are missing or stale, records
    /// their sizes, and returns their names in the order given.
    static func refresh(_ tables: [String], schema: String, in connection: any StoreConnection) throws -> [String] {
        var stale: [(table: String, size: Int64)] = []
        for table in tables {
            let size = try connection.value("SELECT pg_relation_size(to_regclass(?))", [.text(table)]).integer ?? 0
            let hasStatistics =
                try connection.value(
                    "SELECT EXISTS (SELECT 1 FROM pg_stats WHERE schemaname = ? AND tablename = ?)",
                    [.text(schema), .text(table)]
                ).bool ?? false
            let recorded = try connection.text("SELECT value FROM store_settings WHERE key = ?", [.text(key(table))])
                .flatMap { Int64($0) }
            if !hasStatistics || recorded.map({ Self.hasMoved(from: $0, to: size) }) ?? true {
                stale.append((table, size))
            }
        }
        guard !stale.isEmpty else { return [] }
        try connection.executeScript("ANALYZE " + stale.map(\.table).joined(separator: ", "))
        for (table, size) in stale {
            try connection.execute(
                """
                INSERT INTO store_settings (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """,
                [.text(key(table)), .text(String(size))])
        }
        return stale.map(\.table)
    }

    static func hasMoved(from recorded: Int64, to size: Int64) -> Bool {
        Double(abs(size - recorded)) > changedFraction * Double(max(recorded, 1))
    }

    private static func key(_ table: String) -> String { "planner_statistics." + table }
}
