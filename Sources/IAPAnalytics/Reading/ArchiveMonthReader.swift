import IAPStore

/// Reads the `archive_months` mart: what each month's figures rest on.
enum ArchiveMonthReader {
    static func read(in connection: any StoreConnection) throws -> [ArchiveMonth] {
        try connection.rows(
            """
            select month, first_archive_day, last_archive_day, archive_days, apple_days_covered
            from archive_months order by month collate \(connection.dialect.binaryCollation)
            """
        ).map { row in
            ArchiveMonth(
                month: row[0].text ?? "", firstArchiveDay: row[1].text, lastArchiveDay: row[2].text,
                archiveDays: row[3].integer ?? 0, appleDaysCovered: row[4].integer ?? 0)
        }
    }
}
