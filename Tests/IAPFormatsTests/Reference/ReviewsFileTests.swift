import Foundation
import IAPFormats
import Testing

/// The reviews file (`--reviews`): refused whole with each bad line; history kept, future decisions refused.
@Suite struct ReviewsFileTests {
    private func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "iaplens-reviews-\(UUID().uuidString.prefix(8)).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let now = ISO8601Millis.parse("2026-06-01T00:00:00Z")!

    /// A decision in any case (a spreadsheet writes `Confirmed`) reads as the lower-case one; before, it refused the
    /// file.
    @Test func aGoodFileKeepsEveryRowAnUnknownAccountAndTheHistory() throws {
        let path = try write(
            """
            account_id,decision,reviewed_at,reviewer,note
            acct-1,cleared,2026-02-15T10:00:00Z,kim,"friendly fraud, once"
            acct-1,Confirmed,2026-04-01T09:00:00Z,lee,came back
            nobody-yet,WATCH,2026-05-01T00:00:00Z,,

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rows = try ReferenceFiles.readReviews(at: path, now: Self.now)
        #expect(rows.map(\.decision) == [.cleared, .confirmed, .watch])
        #expect(rows[0].note == "friendly fraud, once" && rows[0].line == 2 && rows[2].reviewer == "")
    }

    @Test func aBadRowAnUnknownDecisionOrAFutureTimeRefusesTheFileNamingEachLine() throws {
        let path = try write(
            """
            account_id,decision,reviewed_at,reviewer,note
            acct-1,cleared,2026-02-15T10:00:00Z,kim,
            acct-2,banned,2026-02-15T10:00:00Z,kim,
            acct-3,watch,yesterday,kim,
            acct-4,watch,2027-01-01T00:00:00Z,kim,
            ,watch,2026-02-15T10:00:00Z,kim,

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ReferenceFileError.self) {
            try ReferenceFiles.readReviews(at: path, now: Self.now)
        }
        #expect(error.problems.map(\.line) == [3, 4, 5, 6], "\(error)")
        let text = "\(error)"
        #expect(
            text.contains("banned") && text.contains("yesterday") && text.contains("in the future")
                && text.contains("account_id is empty"))
    }
}
