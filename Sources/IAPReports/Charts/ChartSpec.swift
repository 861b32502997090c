/// What a chart shows, before it is drawn: its data, its words and its unit. ``SVGChart`` draws it,
/// ``MermaidChart`` writes the same data as a Mermaid block, and the HTML page puts the SVG inline.
struct ChartSpec: Equatable {
    /// The file stem, unique within its page: the SVG is `charts/<name>.svg` beside the Markdown page, and the
    /// prefix of the ids inside the inline SVG.
    let name: String
    /// The chart's title, drawn on top and read first by screen readers.
    let title: String
    /// A sentence under the chart naming what is drawn in which colour and pattern.
    let caption: Text
    /// What the chart holds.
    let body: Body

    enum Body: Equatable {
        /// Values over categories (months or products).
        case categorical(Categorical)
        /// Dated events on lanes (an account's purchases, refunds, requests).
        case timeline(Timeline)
    }

    /// Values over categories.
    struct Categorical: Equatable {
        enum Kind: Equatable {
            /// One column per series side by side in each category.
            case groupedColumns
            /// The series stacked in one column per category (parts of a whole).
            case stackedColumns
            /// One line per series, a marker on each value.
            case lines
        }

        let kind: Kind
        let categories: [String]
        let series: [Series]
        let unit: ValueUnit
        /// The y axis's name (`Subscriptions`, `USD`).
        let axisTitle: String
        /// Categories (by index) that are provisional months: their columns are hatched and their points hollow, and
        /// the legend says so (Documentation/Reports.md "Provisional months").
        var provisional: Set<Int> = []
    }

    /// One named series, a value per category; nil where there is nothing to draw (a line breaks there).
    struct Series: Equatable {
        let name: String
        let values: [Int64?]
        /// What each value rests on, for its hover text (`3 of 58`); empty when the value says it all.
        var counts: [String?] = []
    }

    /// How values read on the axis and in the description.
    enum ValueUnit: Equatable {
        /// Plain counts.
        case count
        /// Milliunits of a currency, shown in its own minor units.
        case money(currency: String)
        /// Tenths of a percent (`625` = 62.5 %).
        case percentTenths

        /// The smallest step between two ticks, in the value's own unit.
        var minimumStep: Int64 {
            switch self {
            case .count, .percentTenths: 1
            case .money(let currency): Int64(MoneyText.divisor(currency))
            }
        }

        /// A value as a reader says it (`12`, `48,101`, `3.50 USD`, `62.5 %`).
        func text(_ value: Int64) -> String {
            switch self {
            case .count: CountText.count(value)
            case .money(let currency): MoneyText.amount(value, currency: currency)
            case .percentTenths: (value < 0 ? "−" : "") + ChangeText.percent(tenths: Int64(clamping: value.magnitude))
            }
        }

        /// A tick label: like ``text(_:)`` without the currency code (the axis title names it).
        func tick(_ value: Int64) -> String {
            switch self {
            case .money(let currency):
                let text = MoneyText.amount(value, currency: currency)
                return String(text.dropLast(currency.count + 1))
            default: return text(value)
            }
        }
    }

    /// Dated events on named lanes, between two times.
    struct Timeline: Equatable {
        /// Lane names, top to bottom.
        let lanes: [String]
        /// Each event: Unix ms, lane index, and a short label for the description.
        let events: [Event]
        /// The drawn span (Unix ms), from before the first event to after the last.
        let start: Int64
        let end: Int64

        struct Event: Equatable {
            let time: Int64
            let lane: Int
            let label: String
        }
    }
}
