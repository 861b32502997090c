public import IAPFormats

extension JSONObject {
    /// How a payload's unknown fields are stored (`extra_fields`): canonical JSON, so the same fields give the same
    /// text whatever their order; nil when there are none, which is nearly always.
    public var extraFieldsText: String? {
        isEmpty ? nil : String(decoding: JSONValue.object(self).canonicalJSON(), as: UTF8.self)
    }
}
