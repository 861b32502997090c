import Foundation
import IAPFormats
import IAPStore
import IAPTestSupport
import IAPVerification
import Testing

@testable import IAPPipeline

/// Every reason code a document can be quarantined for is documented with what to do: the failure codes
/// of the reading and verification layers keep their names as ``QuarantineReason``s (the conversion is an exhaustive
/// switch; this checks that it maps each to the code of the same name, so a reader sees one name per failure), and `iaplens reasons --markdown` prints one
/// well-formed table row per code, as the README shows it.
@Suite struct ReasonCodeTests {
    @Test func everyLowerLayerFailureCodeIsAQuarantineReason() {
        let documented = Set(QuarantineReason.allCases.map(\.rawValue))
        for code in FormatFailureReason.allCases.map(\.rawValue) + JWSFailureReason.allCases.map(\.rawValue) {
            #expect(documented.contains(code), "\(code) is produced but not a documented QuarantineReason")
        }
        for reason in FormatFailureReason.allCases { #expect(QuarantineReason(reason).rawValue == reason.rawValue) }
        for reason in JWSFailureReason.allCases { #expect(QuarantineReason(reason).rawValue == reason.rawValue) }
        for reason in QuarantineReason.allCases {
            #expect(!reason.meaning.isEmpty && !reason.remedy.isEmpty, "\(reason.rawValue)")
        }
    }

    @Test func reasonsMarkdownPrintsOneRowPerCode() throws {
        let result = try CLI.run(["reasons", "--markdown"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "| code | meaning | what to do |")
        let rows = lines.dropFirst(2)
        #expect(rows.count == QuarantineReason.allCases.count)
        for (row, reason) in zip(rows, QuarantineReason.allCases) {
            #expect(row.hasPrefix("| `\(reason.rawValue)` | "), "\(row)")
            #expect(InjectionTests.unescapedPipes(Substring(row)) == 4, "a | in the text breaks the table: \(row)")
        }
    }
}
