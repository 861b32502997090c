import IAPFormats

/// A deliberately non-standard JWS header, for negative tests: another `alg`, an explicit `x5c` list (two or
/// four certificates, junk), extra fields, or raw header text that is not a JSON object at all.
public struct JWSHeaderOverride: Sendable, Equatable {
    /// The `alg` to write; nil leaves the field out.
    public var alg: String?
    /// The `x5c` entries to write verbatim; nil writes the chain's own `[leaf, intermediate, root]`.
    public var x5c: [String]?
    /// Leaves `x5c` out entirely (wins over `x5c`).
    public var omitX5C: Bool
    /// Extra string fields written after `alg` and `x5c`, sorted by key (for example `kid`, `typ`).
    public var extraFields: [String: String]
    /// When set, this exact text is the header before base64url encoding and every other field is ignored.
    public var rawHeader: String?

    /// Makes an override; with no arguments it produces the standard header.
    public init(
        alg: String? = "ES256",
        x5c: [String]? = nil,
        omitX5C: Bool = false,
        extraFields: [String: String] = [:],
        rawHeader: String? = nil
    ) {
        self.alg = alg
        self.x5c = x5c
        self.omitX5C = omitX5C
        self.extraFields = extraFields
        self.rawHeader = rawHeader
    }

    /// The header JSON, fields in a fixed order so the output is byte-stable.
    func json(defaultX5C: [String]) -> String {
        if let rawHeader { return rawHeader }
        var fields: [String] = []
        if let alg { fields.append("\"alg\":\(Self.quoted(alg))") }
        if !omitX5C {
            let entries = (x5c ?? defaultX5C).map(Self.quoted).joined(separator: ",")
            fields.append("\"x5c\":[\(entries)]")
        }
        for key in extraFields.keys.sorted() {
            fields.append("\(Self.quoted(key)):\(Self.quoted(extraFields[key] ?? ""))")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
