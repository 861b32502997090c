/// The value axis of a chart: a range that starts at or below zero and ends at or above it, cut into 2–6 "nice"
/// steps (1, 2 or 5 times a power of ten, never finer than the unit's smallest step).
///
/// Integer arithmetic only, so the same data gives the same ticks on every machine.
struct AxisScale: Equatable {
    let low: Int64
    let high: Int64
    let step: Int64

    /// Covers every value and zero.
    init(values: [Int64], minimumStep: Int64) {
        let smallest = min(0, values.min() ?? 0)
        let largest = max(0, values.max() ?? 0)
        // Halved so that an extreme value cannot overflow the span; a chart of such values is no use anyway.
        let span = max(largest / 2 - smallest / 2, 1)
        let rough = max(span / 2, 1)  // about four steps over the span (the span was halved)
        var magnitude: Int64 = 1
        while magnitude <= rough / 10 { magnitude *= 10 }
        var step = magnitude
        for factor: Int64 in [1, 2, 5, 10] {
            let (candidate, overflow) = magnitude.multipliedReportingOverflow(by: factor)
            step = overflow ? Int64.max / 4 : candidate
            if step >= rough { break }
        }
        step = max(step, minimumStep, 1)
        self.step = step
        low = smallest >= 0 ? 0 : -Self.roundUp(smallest.magnitude, to: step)
        let top = Self.roundUp(largest.magnitude, to: step)
        high = top == 0 ? step : top
    }

    /// The tick values from low to high.
    var ticks: [Int64] {
        var values: [Int64] = []
        var value = low
        while value <= high && values.count < 20 {
            values.append(value)
            let (next, overflow) = value.addingReportingOverflow(step)
            if overflow { break }
            value = next
        }
        return values
    }

    /// Where a value sits between low (0) and high (1).
    func fraction(_ value: Int64) -> Double {
        let span = Double(high) - Double(low)
        return span > 0 ? (Double(value) - Double(low)) / span : 0
    }

    private static func roundUp(_ magnitude: UInt64, to step: Int64) -> Int64 {
        let step = UInt64(step)
        let (up, overflow) = magnitude.addingReportingOverflow(step - 1)
        guard !overflow else { return Int64.max / 2 }
        return Int64(clamping: up / step * step)
    }
}
