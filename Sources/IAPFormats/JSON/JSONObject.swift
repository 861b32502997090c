/// A JSON object that keeps its keys in input order and has no duplicate keys.
///
/// Small objects are searched linearly; larger ones carry a ``JSONKeyIndex``, so lookups stay fast without
/// paying for a dictionary on every object.
public struct JSONObject: Sendable, Equatable {
    /// Objects with more keys than this get a key index.
    static let indexThreshold = 8

    /// The keys, in input order.
    public private(set) var keys: [String]
    /// The values, in the same order as ``keys``.
    public private(set) var values: [JSONValue]
    private var index: JSONKeyIndex?

    /// Creates an empty object.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// Creates an object from key–value pairs in order; when a key repeats, the later value replaces the earlier one
    /// (keeping the earlier position).
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        for (key, value) in pairs { updateValue(value, forKey: key) }
    }

    /// Used by the parser, which has already rejected duplicate keys and may hand over its index.
    init(uniqueKeys: [String], values: [JSONValue], index: JSONKeyIndex?) {
        self.keys = uniqueKeys
        self.values = values
        self.index = index ?? (uniqueKeys.count > Self.indexThreshold ? JSONKeyIndex(uniqueKeys) : nil)
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// `true` when the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The members in input order.
    public var pairs: [(key: String, value: JSONValue)] {
        zip(keys, values).map { (key: $0, value: $1) }
    }

    /// The value for `key`, or `nil` when the object has no such member.
    public subscript(key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        return values[position]
    }

    /// Sets the value for `key`: replaces it in place when present, appends it otherwise.
    public mutating func updateValue(_ value: JSONValue, forKey key: String) {
        if let position = position(of: key) {
            values[position] = value
            return
        }
        keys.append(key)
        values.append(value)
        if index != nil {
            index?.append(key, in: keys)
        } else if keys.count > Self.indexThreshold {
            index = JSONKeyIndex(keys)
        }
    }

    /// Position of `key` in ``keys`` (and ``values``), or nil when the object has no such member.
    public func position(of key: String) -> Int? {
        if let index { return index.position(of: key, in: keys) }
        return keys.firstIndex(of: key)
    }

    /// Objects are equal when they have the same members; key order does not matter, as in JSON itself.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (position, key) in lhs.keys.enumerated() {
            guard let other = rhs[key], other == lhs.values[position] else { return false }
        }
        return true
    }
}
