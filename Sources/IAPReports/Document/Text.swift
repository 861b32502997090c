/// A run of inline text on a report page, kept as meaning (prose, data, emphasis, code, a link) rather than as
/// Markdown or HTML, so that one page description is written by both writers and each escapes in its own way.
///
/// Text from the data (product IDs, account IDs, notes) enters only as ``Span/data(_:)``: both writers escape it and
/// cut it at ``maximumDataLength``. Our own sentences are ``Span/prose(_:)``: escaped too, never cut. String
/// interpolation keeps the two apart: literal segments are prose, interpolated strings are data.
struct Text: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// One piece of inline text.
    indirect enum Span: Equatable, Sendable {
        /// Our own words.
        case prose(String)
        /// A value from the data: escaped and shortened by every writer.
        case data(String)
        /// Strong emphasis (`**…**`, `<strong>`).
        case strong(Text)
        /// Emphasis (`_…_`, `<em>`).
        case emphasis(Text)
        /// A literal name, option or code (`` `…` ``, `<code>`).
        case code(String)
        /// A link to a relative path or a fragment (`#finance`).
        case link(Text, href: String)
        /// Text a line must not break inside (an amount: `5100 JPY`); plain in Markdown.
        case unbroken(Text)
    }

    /// Longest data value shown in one place; the CSV keeps the full value.
    static let maximumDataLength = 200

    private(set) var spans: [Span]

    init(spans: [Span] = []) {
        self.spans = spans
    }

    /// Our own words.
    init(stringLiteral value: String) {
        spans = value.isEmpty ? [] : [.prose(value)]
    }

    init(stringInterpolation: Interpolation) {
        spans = stringInterpolation.spans
    }

    /// A value from the data.
    static func data(_ value: String) -> Text { Text(spans: [.data(value)]) }
    /// Our own words from a computed string.
    static func prose(_ value: String) -> Text { Text(spans: value.isEmpty ? [] : [.prose(value)]) }
    static func strong(_ text: Text) -> Text { Text(spans: [.strong(text)]) }
    static func emphasis(_ text: Text) -> Text { Text(spans: [.emphasis(text)]) }
    static func code(_ name: String) -> Text { Text(spans: [.code(name)]) }
    static func link(_ text: Text, to href: String) -> Text { Text(spans: [.link(text, href: href)]) }
    /// Text kept on one line (a rate with its counts: "5.2 % (3 of 58)").
    static func unbroken(_ text: Text) -> Text { Text(spans: [.unbroken(text)]) }
    /// A count with its thousands grouped (`48,101`).
    static func count(_ value: some BinaryInteger) -> Text { .data(CountText.count(Int64(clamping: value))) }
    /// Counts side by side (`29 / 29`, `3 / 0 / 5`), grouped and kept on one line, so that a narrow column never
    /// leaves a count apart from its pair.
    static func counts(_ values: Int64...) -> Text {
        .unbroken(.data(values.map(CountText.count).joined(separator: " / ")))
    }
    /// An amount in the currency's own minor units, kept on one line.
    static func money(_ milli: Int64, currency: String) -> Text {
        Text(spans: [.unbroken(.data(MoneyText.amount(milli, currency: currency)))])
    }

    static func + (lhs: Text, rhs: Text) -> Text { Text(spans: lhs.spans + rhs.spans) }

    static func += (lhs: inout Text, rhs: Text) { lhs.spans += rhs.spans }

    /// Pieces joined by a separator of our own.
    static func joined(_ parts: [Text], separator: String) -> Text {
        var out = Text()
        for (index, part) in parts.enumerated() {
            if index > 0 { out += .prose(separator) }
            out += part
        }
        return out
    }

    var isEmpty: Bool { spans.isEmpty }

    /// The words as a screen reader or a search would see them: no markup, data uncut.
    var plain: String {
        spans.map { span in
            switch span {
            case .prose(let text), .data(let text), .code(let text): text
            case .strong(let inner), .emphasis(let inner), .link(let inner, _), .unbroken(let inner): inner.plain
            }
        }.joined()
    }

    /// Literal segments are prose; `\(value)` of a string is data; `\(number)` is prose; `\(strong:)`, `\(em:)`,
    /// `\(code:)` and `\(link:to:)` mark their part.
    struct Interpolation: StringInterpolationProtocol {
        var spans: [Span] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { spans.append(.prose(literal)) }
        }

        mutating func appendInterpolation(_ value: String) { spans.append(.data(value)) }
        /// A count in our own words, thousands grouped (`48,101`).
        mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) {
            spans.append(.prose(CountText.count(Int64(clamping: value))))
        }
        mutating func appendInterpolation(_ text: Text) { spans += text.spans }
        mutating func appendInterpolation(strong text: Text) { spans.append(.strong(text)) }
        mutating func appendInterpolation(em text: Text) { spans.append(.emphasis(text)) }
        mutating func appendInterpolation(code name: String) { spans.append(.code(name)) }
        mutating func appendInterpolation(link text: Text, to href: String) { spans.append(.link(text, href: href)) }
    }
}
