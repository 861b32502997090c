public import IAPFormats

// Literal syntax for building test payloads: `["notificationType": "REFUND", "signedDate": 1_700_000_000_000]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }

    /// A JSON integer.
    public static func int(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }

    /// Compact JSON text (keys sorted): what test archives hold.
    public var text: String { String(decoding: canonicalJSON(), as: UTF8.self) }

    /// The object with `key` set (or removed when `value` is nil).
    public func setting(_ key: String, _ value: JSONValue?) -> JSONValue {
        guard case .object(let object) = self else { return self }
        var pairs = object.pairs.filter { $0.key != key }.map { ($0.key, $0.value) }
        if let value { pairs.append((key, value)) }
        return .object(JSONObject(pairs))
    }
}
