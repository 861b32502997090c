import IAPFormats
import Testing

@testable import IAPModel

/// `unreadFields()` is what a payload carried that no decoder asked for: Apple's new fields, kept in `extra_fields`.
/// The reader notes reads by member position, so these cover the positions past the first 64 too.
@Suite struct FieldReaderUnreadTests {
    private func reader(_ json: String) throws -> FieldReader {
        try FieldReader(value: try JSONParser.parse(json), path: "")
    }

    @Test func theUnreadMembersAreKeptInInputOrderWithoutNulls() throws {
        let reader = try reader(#"{"b":1,"newField":"x","a":"read","gone":null,"later":{"k":true}}"#)
        _ = try reader.string("a")
        _ = try reader.int64("b")
        _ = try reader.string("absent")  // asked for but not sent: nothing to note
        let unread = reader.unreadFields()
        #expect(unread.keys == ["newField", "later"])
        #expect(unread["newField"] == .string("x"))
    }

    @Test func aSkippedMemberCountsAsRead() throws {
        let reader = try reader(#"{"expires_date":"2024-01-01 00:00:00 Etc/GMT","expires_date_ms":"1704067200000"}"#)
        _ = try reader.lenientInt64("expires_date_ms")
        reader.skip("expires_date", "not_sent")
        #expect(reader.unreadFields().isEmpty)
    }

    @Test func everyMemberPastTheSixtyFourthIsTrackedToo() throws {
        let members = (0..<150).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let reader = try reader("{\(members)}")
        for index in stride(from: 0, to: 150, by: 2) { _ = try reader.int64("k\(index)") }
        let unread = reader.unreadFields()
        #expect(unread.keys == stride(from: 1, to: 150, by: 2).map { "k\($0)" })
        #expect(unread["k149"] == .number(JSONNumber(149)))
    }

    @Test func readingAMemberTwiceOrEveryMemberLeavesNothingUnread() throws {
        let reader = try reader(#"{"x":1,"y":"two"}"#)
        _ = try reader.int64("x")
        _ = try reader.int64("x")
        #expect(reader.unreadFields().keys == ["y"])
        _ = try reader.string("y")
        #expect(reader.unreadFields().isEmpty)
    }
}
