import Foundation
import IAPStore
import Testing

/// The SQL of the models and of the Swift readers compares `format`, `source` and `outcome` with literals. Each
/// literal must be a value of the closed vocabulary the column holds (``PayloadFormat``, ``TransactionSource``,
/// ``DocumentOutcome``): a renamed or misspelt value would otherwise silently match nothing.
@Suite struct VocabularyLiteralTests {
    static let vocabularies: [String: Set<String>] = [
        "format": Set(PayloadFormat.allCases.map(\.rawValue)),
        "source": Set(TransactionSource.allCases.map(\.rawValue)),
        "outcome": Set(DocumentOutcome.allCases.map(\.rawValue)),
    ]

    @Test func everyComparedLiteralIsAValueOfItsVocabulary() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let pattern = try NSRegularExpression(
            pattern: #"\b(format|source|outcome)\s*(=|<>|in)\s*\(?\s*('[^)\n]*')"#, options: [.caseInsensitive])
        var checked = 0
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        // The schemas are checked by StoreSchemaParityTests; `runs.outcome` (running, completed, failed) is the run
        // log's own column, not a document's.
        let skipped = ["IAPStore/SQLite/Schema/", "IAPStore/Postgres/Migrations/", "IAPStore/Writing/RunLog.swift"]
        for file in files
        where (file.hasSuffix(".sql") || file.hasSuffix(".swift")) && !skipped.contains(where: file.hasPrefix) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                guard let columnRange = Range(match.range(at: 1), in: text),
                    let listRange = Range(match.range(at: 3), in: text),
                    let allowed = Self.vocabularies[text[columnRange].lowercased()]
                else { continue }
                let values = text[listRange].split(separator: "'").enumerated().filter { $0.offset % 2 == 0 }.map {
                    String($0.element)
                }
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix(",") && !$0.isEmpty }
                for value in values {
                    #expect(allowed.contains(value), "\(file): \(text[columnRange]) compared with '\(value)'")
                    checked += 1
                }
            }
        }
        #expect(checked >= 10, "the scan found only \(checked) literals: the pattern no longer matches the SQL")
    }
}
