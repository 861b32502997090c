import Testing

@testable import IAPFormats

/// Objects of every size find every key they have and no key they lack, including keys built to share a
/// fingerprint (same length, same first and last eight bytes), and still reject duplicates.
@Suite struct JSONKeyIndexTests {
    /// Keys that all share one fingerprint, and short keys that differ in one byte.
    private func keys(_ count: Int) -> [String] {
        (0..<count).map { number in
            number % 2 == 0 ? "prefix00_\(1_000 + number)_suffix00" : "k\(number)"
        }
    }

    private func document(_ keys: [String], duplicate: String? = nil) -> String {
        var members = keys.enumerated().map { "\"\($0.element)\": \($0.offset)" }
        if let duplicate { members.append("\"\(duplicate)\": -1") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test("lookups", arguments: [1, 8, 9, 30, 128, 129, 300])
    func everyKeyIsFoundAndNoOther(count: Int) throws {
        let keys = keys(count)
        #expect(JSONKeyIndex.fingerprint(keys[0]) == JSONKeyIndex.fingerprint("prefix00_9999_suffix00"))
        let object = try #require(try JSONParser.parse(document(keys)).objectValue)
        for (position, key) in keys.enumerated() {
            #expect(object[key]?.int64Value == Int64(position), "\(key)")
        }
        for absent in ["prefix00_9999_suffix00", "k", "", "k\(count + 1)", "prefix00_1000_suffix0"] {
            #expect(object[absent] == nil, "\(absent)")
        }
        // Built key by key (updateValue) rather than by the parser: the same answers.
        var built = JSONObject()
        for (position, key) in keys.enumerated() {
            built.updateValue(.number(JSONNumber(Int64(position))), forKey: key)
        }
        #expect(built == object)
        built.updateValue(.null, forKey: keys[count - 1])
        #expect(built.count == count && built[keys[count - 1]] == .null)
    }

    @Test("duplicates", arguments: [2, 9, 30, 129, 300])
    func aRepeatedKeyIsRejectedAtAnySize(count: Int) {
        let keys = keys(count)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(document(keys, duplicate: keys[count / 2])) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(document(keys, duplicate: keys[0])) }
    }
}
