import Foundation
import GRDB
import Testing

@testable import IAPStore

/// ``BoundStatement`` binds text from the String's own UTF-8: every value must read back exactly, whether it is large,
/// small enough for Swift to keep inline, empty, or holds a NUL.
@Suite struct BoundStatementTests {
    @Test func everyTextReadsBackAsBoundWhateverItsSizeAndTheRowsAround() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE probe (n INTEGER, a TEXT, b TEXT, c TEXT)")
        }
        let large = String(repeating: "0123456789abcdef", count: 2_500)  // 40 KB: more than the buffer holds
        let rows: [(String?, String?, String?)] =
            [
                ("short", "a somewhat longer value than fits inline", nil),
                (large, "after the overflow, in the same row", "é and ü, not ASCII"),
                ("the row after the buffer grew", large + large, ""),
                ("nul\u{0}byte", "x", "y"),
                (nil, nil, nil),
            ] + (0..<300).map { ("row \($0)", String(repeating: "v", count: $0), "\($0)") }
        try queue.write { db in
            var statement = try BoundStatement(db, sql: "INSERT INTO probe (n, a, b, c) VALUES (?, ?, ?, ?)")
            for (number, row) in rows.enumerated() {
                statement.bind(number)
                statement.bind(row.0)
                statement.bind(row.1)
                statement.bind(row.2)
                try statement.execute()
            }
        }
        let stored = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT a, b, c FROM probe ORDER BY n").map {
                ($0[0] as String?, $0[1] as String?, $0[2] as String?)
            }
        }
        #expect(stored.count == rows.count)
        for (index, (expected, actual)) in zip(rows, stored).enumerated() {
            #expect(actual.0 == expected.0.map(StoredText.storable), "row \(index)")
            #expect(actual.1 == expected.1, "row \(index)")
            #expect(actual.2 == expected.2, "row \(index)")
        }
    }
}
