/// Escaping and number formatting for SVG written as text.
enum SVGMarkup {
    /// Data or our own words inside an element or attribute: XML's five special characters become entities, control
    /// characters and bidirectional overrides are replaced, and long texts are cut with `…`.
    static func text(_ value: String, limit: Int = Text.maximumDataLength) -> String {
        // XML has the same five special characters as HTML, and these entities are valid in both.
        HTMLText.escape(value, limit: limit)
    }

    /// A coordinate with one decimal, `-0` written `0`: the same text for the same number on every machine.
    static func number(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let magnitude = tenths.magnitude
        let body = magnitude % 10 == 0 ? "\(magnitude / 10)" : "\(magnitude / 10).\(magnitude % 10)"
        return tenths < 0 ? "-" + body : body
    }
}
