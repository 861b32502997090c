import Foundation
import IAPFormats
import IAPStore
import Testing

@testable import IAPAnalytics

/// Every business rule has one home (``BusinessRules``, ``ChurnReason``, ``ProductType``,
/// ``ConsumptionAnswerResult``, ``ReportColumns/countedActivityFiles``), and these tests fail when a model or a page
/// spells one out again instead of reading it from there.
@Suite struct BusinessRulesTests {
    /// Each model file's SQL without its `--` comments and its `{{ … }}` calls (where the rules are named), by path.
    static let models: [(path: String, sql: String)] = SQLModelSource.embeddedPaths.map { path in
        let text = SQLModelSource.embeddedText(path) ?? ""
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "--").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        return (path, code.replacingOccurrences(of: #"\{\{.*?\}\}"#, with: "{{}}", options: .regularExpression))
    }

    @Test func noModelSpellsOutARuleNumber() {
        #expect(Self.models.count >= 30)
        let numbers = BusinessRules.byName.values.filter { $0 >= 1_000 }.map(String.init)
        for (path, sql) in Self.models {
            for number in numbers {
                #expect(!sql.contains(number), "\(path) spells out \(number): use {{ rule('…') }}")
            }
            #expect(
                sql.range(of: #"then\s+(70|85)\b"#, options: .regularExpression) == nil,
                "\(path): a proceeds percent spelt out")
        }
    }

    @Test func noModelComparesARuledColumnWithAQuotedLiteral() throws {
        let comparison = try NSRegularExpression(
            pattern: #"\b(product_type|reason|churn_type|result)\s*(=|<>|in)\s*\(?\s*'"#, options: [.caseInsensitive])
        let codes =
            ChurnReason.allCases.map(\.rawValue).filter { $0 != "refunded" && $0 != "unknown" }
            + ChurnType.allCases.map(\.rawValue) + [
                "auto_renewable", "non_renewing", "non_consumable", "in_doubt", "sending",
            ]
        for (path, sql) in Self.models {
            let matches = comparison.numberOfMatches(in: sql, range: NSRange(sql.startIndex..., in: sql))
            #expect(
                matches == 0,
                "\(path) compares a ruled column with a literal: use {{ product_type('…') }} and its siblings")
            for code in codes { #expect(!sql.contains("'\(code)'"), "\(path) spells out '\(code)'") }
        }
    }

    @Test func everyModelRendersOnBothEngines() throws {
        for (path, _) in Self.models {
            let text = SQLModelSource.embeddedText(path) ?? ""
            for dialect in [SQLDialect.sqlite, .postgres] {
                #expect(throws: Never.self, "\(path)") {
                    _ = try SQLTemplate(dialect: dialect, schema: "iaplens").render(text)
                }
            }
        }
        #expect(throws: SQLTemplate.Failure.self) {
            _ = try SQLTemplate(dialect: .sqlite, schema: "s").render("{{ product_type('consumables') }}")
        }
        #expect(throws: SQLTemplate.Failure.self) {
            _ = try SQLTemplate(dialect: .sqlite, schema: "s").render("{{ rule('sixty_days') }}")
        }
    }

    @Test func theChurnMappingsAgree() {
        for intent: Int64 in 1...5 {
            let reason = ChurnReason(expirationIntent: intent)
            #expect(reason.expirationIntent == intent, "intent \(intent) maps to \(reason) and back")
        }
        #expect(ChurnReason(expirationIntent: 9) == .unknown)
        #expect(ChurnReason.allCases.filter { $0.churnType == .involuntary } == [.billingError])
        let subtypes = ChurnReason.allCases.compactMap(\.expiredSubtype)
        #expect(Set(subtypes).count == subtypes.count)
    }

    @Test func reportMonthsUnionsExactlyTheCountedActivityFiles() {
        let sql = SQLModelSource.embeddedText("marts/report_months.sql") ?? ""
        let activity =
            sql.components(separatedBy: "activity_months as (").dropFirst().first?.components(separatedBy: "),").first
            ?? ""
        let refs = Set(SQLTemplate.references(in: activity).map { $0 + ".csv" })
        #expect(refs == Set(ReportColumns.countedActivityFiles))
    }

    /// The pages, the command line and the consumption job say the rules' numbers through the constants.
    @Test func noSwiftTextSpellsOutARule() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let phrases = ["60 days", "12 hours", "85 %", "70 %", "70/85"]
        var scanned = 0
        for folder in ["IAPReports", "IAPAnalytics", "IAPConsumption", "iaplens", "IAPPipeline"] {
            let root = sources.appendingPathComponent(folder)
            for file in FileManager.default.enumerator(atPath: root.path)?.compactMap({ $0 as? String }) ?? []
            where file.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                scanned += 1
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                {
                    for phrase in phrases where line.contains(phrase) {
                        Issue.record(
                            "\(folder)/\(file) spells out \"\(phrase)\": \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(scanned > 50)
    }
}
