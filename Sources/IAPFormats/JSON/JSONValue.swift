/// One JSON value, as produced by ``JSONParser``.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text.
    case number(JSONNumber)
    /// A string, decoded from its escapes.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its keys in input order.
    case object(JSONObject)

    /// The member named `key` when this is an object that has it; otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The string when this is a string.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The number when this is a number.
    public var numberValue: JSONNumber? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The integer when this is a number written as an integer that fits in `Int64` (see ``JSONNumber/int64``).
    public var int64Value: Int64? { numberValue?.int64 }

    /// The Boolean when this is `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The object when this is an object.
    public var objectValue: JSONObject? {
        guard case .object(let value) = self else { return nil }
        return value
    }

    /// `true` when this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the JSON type, for messages: `"null"`, `"a Boolean"`, `"a number"`, `"a string"`, `"an array"`, `"an object"`.
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
