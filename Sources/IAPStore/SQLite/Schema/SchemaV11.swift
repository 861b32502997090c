// swift-format-ignore-file
// Frozen history: a shipped migration keeps its text, layout included, so the formatter leaves this file alone.
import Foundation
import GRDB

/// Migration "v11 checks without IN lists": every `CHECK (column IN ('a', 'b', 'c', …))` with three values or more
/// becomes `CHECK ((column = 'a' OR column = 'b' OR column = 'c' …))`.
///
/// Why: SQLite tests an IN list of three values or more against a temporary b-tree that it builds for each row it
/// writes (opened, filled with the list, searched, dropped). Ingest writes `documents.outcome` and
/// `transaction_versions.source` for every document, and those two lists cost about 11,000 instructions per row each,
/// a seventh of the writer's work (Documentation/Performance.md, "Ingest's text bound in place"). A chain of comparisons is a few
/// instructions.
///
/// Both forms accept exactly the same rows: the same values under the column's own collation, and NULL passes both.
/// Each table is rebuilt the way SQLite's documentation gives for any change of a table's definition ("Making Other
/// Kinds Of Table Schema Changes"): a new table with the new text, every row copied, the old table dropped, the new
/// one renamed, its indexes and triggers made again. The schema table itself is never written (`writable_schema`
/// stays off). On a new store the tables are empty; an older store copies its rows once.
enum SchemaV11 {
    /// `column IN ('a', 'b', …)`: a column name and a list of single-quoted values (no quote inside a value).
    /// The patterns here are constants that every migration test compiles: a failure is a typo in this file.
    // swift-format-ignore: NeverUseForceTry
    private static let list = try! NSRegularExpression(
        pattern: #"([A-Za-z_][A-Za-z0-9_]*)\s+IN\s*\(\s*('[^']*'(?:\s*,\s*'[^']*')*)\s*\)"#)

    // swift-format-ignore: NeverUseForceTry
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
        for change in changes {
            let temporary = "v11_rebuilt_" + change.name
            guard let create = createStatement(change.sql, renamedTo: temporary) else {
                throw DatabaseError(message: "v11: cannot read the definition of table \(change.name)")
            }
            // Its indexes and triggers go with the old table; their text is kept to make them again.
            let dependents = try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
                arguments: [change.name])
            try db.execute(sql: create)
            try db.execute(sql: "INSERT INTO \(temporary) SELECT * FROM \(change.name)")
            try db.execute(sql: "DROP TABLE \(change.name)")
            try db.execute(sql: "ALTER TABLE \(temporary) RENAME TO \(change.name)")
            for statement in dependents { try db.execute(sql: statement) }
        }
    }

    /// `CREATE TABLE name (…)` as `CREATE TABLE temporary (…)`, or nil when the text does not start that way.
    static func createStatement(_ sql: String, renamedTo temporary: String) -> String? {
        // swift-format-ignore: NeverUseForceTry
        let head = try! NSRegularExpression(pattern: #"^\s*CREATE\s+TABLE\s+(?:"[^"]+"|[A-Za-z_][A-Za-z0-9_]*)"#, options: [.caseInsensitive])
        let text = sql as NSString
        guard let match = head.firstMatch(in: sql, range: NSRange(location: 0, length: text.length)) else { return nil }
        return "CREATE TABLE \(temporary)" + text.substring(from: match.range.location + match.range.length)
    }
}
