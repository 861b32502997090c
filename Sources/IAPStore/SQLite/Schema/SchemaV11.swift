import Foundation
import GRDB

/// Migration "v11 checks without IN lists": every `CHECK (column IN ('a', 'b', 'c', …))` with three values or more
/// becomes `CHECK ((column = 'a' OR column = 'b' OR column = 'c' …))`.
///
/// Why: SQLite tests an IN list of three values or more against a temporary b-tree that it builds for each row it
/// writes (opened, filled with the list, searched, dropped). Ingest writes `documents.outcome` and
/// `transaction_versions.source` for every document, and those two lists cost about 11,000 instructions per row each,
/// a seventh of the writer's work (Documentation/Performance.md, "What SQLite did per row"). A chain of comparisons is a few
/// instructions.
///
/// Both forms accept exactly the same rows: the same values under the column's own collation, and NULL passes both.
/// So every stored row already satisfies the new text, and the text is replaced in the schema table itself, the way
/// SQLite's documentation allows for constraint changes that leave the file's format alone, instead of copying every
/// row of `documents` and `transaction_versions` into new tables.
enum SchemaV11 {
    /// `column IN ('a', 'b', …)`: a column name and a list of single-quoted values (no quote inside a value).
    private static let list = try! NSRegularExpression(
        pattern: #"([A-Za-z_][A-Za-z0-9_]*)\s+IN\s*\(\s*('[^']*'(?:\s*,\s*'[^']*')*)\s*\)"#)

    private static let quoted = try! NSRegularExpression(pattern: "'[^']*'")

    /// `sql` with each IN list of three values or more written as a parenthesized OR of comparisons; shorter lists
    /// (SQLite compares those directly) are left as they are.
    static func rewrite(_ sql: String) -> String {
        let text = sql as NSString
        var result = ""
        var copied = 0
        for match in list.matches(in: sql, range: NSRange(location: 0, length: text.length)) {
            let column = text.substring(with: match.range(at: 1))
            let values = quoted.matches(in: sql, range: match.range(at: 2)).map { text.substring(with: $0.range) }
            guard values.count >= 3 else { continue }
            result += text.substring(with: NSRange(location: copied, length: match.range.location - copied))
            result += "(" + values.map { "\(column) = \($0)" }.joined(separator: " OR ") + ")"
            copied = match.range.location + match.range.length
        }
        return copied == 0 ? sql : result + text.substring(from: copied)
    }

    static func migrate(_ db: Database) throws {
        let tables = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%CHECK%'")
        let changes = tables.compactMap { row -> (name: String, sql: String)? in
            let (name, sql): (String, String) = (row[0], row[1])
            let rewritten = rewrite(sql)
            return rewritten == sql ? nil : (name, rewritten)
        }
        if changes.isEmpty { return }
        // The schema cookie tells every connection (this one included) to read the schema again.
        let cookie = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        for change in changes {
            try db.execute(
                sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", arguments: [change.sql, change.name])
        }
        try db.execute(sql: "PRAGMA schema_version = \(cookie + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
        db.clearSchemaCache()
    }
}
