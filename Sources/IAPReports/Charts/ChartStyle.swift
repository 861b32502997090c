/// Colours, patterns and markers that stay apart for colour-blind readers and on a grey-scale print: the Okabe–Ito
/// palette, and on top of colour a texture per series (solid, then stripes at different angles) for columns and a
/// dash pattern and marker shape per series for lines.
enum ChartStyle {
    /// Okabe & Ito's colour-blind-safe palette (yellow left out: too pale on white).
    static let colours = ["#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000"]

    static func colour(_ series: Int) -> String {
        colours[series % colours.count]
    }

    /// Stripe angle of a column series' pattern; nil for the solid first series.
    static func stripeAngle(_ series: Int) -> Int? {
        let angles = [45, -45, 0, 90]
        return series == 0 ? nil : angles[(series - 1) % angles.count]
    }

    /// SVG `stroke-dasharray` of a line series; nil for a solid line.
    static func dash(_ series: Int) -> String? {
        let dashes: [String?] = [nil, "7 4", "2 3", "9 3 2 3"]
        return dashes[series % dashes.count]
    }

    /// Marker shapes, one per series (or lane), in this order.
    enum Marker {
        case circle
        case square
        case triangle
        case diamond
    }

    static func marker(_ series: Int) -> Marker {
        [Marker.circle, .square, .triangle, .diamond][series % 4]
    }

    /// One font for charts, as in the stylesheet.
    static let fontFamily = "DejaVu Sans, Verdana, Arial, sans-serif"

    /// Estimated width of a character at 11 px, generous (DejaVu Sans averages about 6.2 px there): legends and
    /// axis labels are laid out without measuring, so output does not depend on the fonts installed.
    static let characterWidth: Double = 6.6
}
