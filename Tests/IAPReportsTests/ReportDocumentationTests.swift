import Foundation
import IAPAnalytics
import Testing

/// `Documentation/Reports.md` is the column dictionary users read: it must name every file and every column the
/// writer produces, so the two cannot drift apart.
@Suite struct ReportDocumentationTests {
    @Test func everyFileAndColumnIsDocumented() throws {
        let path = BrowserTests.packageRoot.appendingPathComponent("Documentation/Reports.md")
        let text = try String(contentsOf: path, encoding: .utf8)
        for file in ReportColumns.files {
            #expect(text.contains("`\(file.name)`"), "\(file.name) is not in Documentation/Reports.md")
            for column in file.columns {
                #expect(
                    text.contains("`\(column)`"), "\(file.name): column \(column) is not in Documentation/Reports.md")
            }
        }
        for page in ["report.md", "report.html", "index.md", "index.html", "style.css"] {
            #expect(text.contains("`\(page)`"))
        }
    }
}
