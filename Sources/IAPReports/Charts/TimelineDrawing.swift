import IAPFormats

/// Dated events on lanes (an account's purchases, refunds, consumption requests …): a time axis with month ticks,
/// one row per lane, one `point` per event in the lane's colour and shape. Events too close to tell apart (a ring's
/// purchase, spend and refund minutes apart) are stacked on rows within their lane, which grows to hold them.
struct TimelineDrawing {
    let data: ChartSpec.Timeline

    private let left: Double = 150
    private let right: Double = SVGChart.width - 20
    private let laneHeight: Double = 26
    /// A marker is 8 units wide: markers closer than this overlap.
    private let markerSpacing: Double = 10
    /// Rows of markers within a lane; beyond this, markers share the last row.
    private let maximumRows = 8

    /// Draws the chart; returns the height it needs.
    func draw(on canvas: inout SVGCanvas) -> Double {
        let n = SVGMarkup.number
        let top: Double = 44
        let span = Double(max(data.end - data.start, 1))
        let x = { (time: Int64) in left + (Double(time - data.start) / span) * (right - left) }
        let placed = rows(x: x)
        var laneTops: [Double] = []
        var laneHeights: [Double] = []
        var next = top
        for lane in data.lanes.indices {
            let height = max(laneHeight, Double(placed.rowCounts[lane]) * markerSpacing + 8)
            laneTops.append(next)
            laneHeights.append(height)
            next += height
        }
        let bottom = data.lanes.isEmpty ? top + laneHeight : next

        for (lane, name) in data.lanes.enumerated() {
            let y = laneTops[lane] + laneHeights[lane] / 2
            canvas.add(
                "<line x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(right))\" y2=\"\(n(y))\" stroke=\"#e3e3e3\" "
                    + "stroke-width=\"1\"/>")
            canvas.text(name, x: left - 10, y: y + 4, anchor: "end", limit: 24)
        }
        canvas.add(
            "<line x1=\"\(n(left))\" y1=\"\(n(bottom))\" x2=\"\(n(right))\" y2=\"\(n(bottom))\" stroke=\"#666666\" "
                + "stroke-width=\"1\"/>")
        let months = monthStarts()
        let ticks = months.count >= 2 ? months : dayStarts()
        let every = max(1, Int((Double(ticks.count) * 60 / (right - left)).rounded(.up)))
        for (index, tick) in ticks.enumerated() where index % every == 0 {
            canvas.add(
                "<line x1=\"\(n(x(tick.time)))\" y1=\"\(n(top))\" x2=\"\(n(x(tick.time)))\" y2=\"\(n(bottom + 4))\" "
                    + "stroke=\"#dddddd\" stroke-width=\"1\"/>")
            canvas.text(tick.label, x: x(tick.time), y: bottom + 17, anchor: "middle")
        }
        for (index, event) in data.events.enumerated() where data.lanes.indices.contains(event.lane) {
            let rows = Double(placed.rowCounts[event.lane])
            let y =
                laneTops[event.lane] + laneHeights[event.lane] / 2 + (Double(placed.row[index]) - (rows - 1) / 2)
                * markerSpacing
            canvas.marker(
                series: event.lane, x: x(event.time), y: y,
                tooltip:
                    "\(UTCTimestamp.iso8601(unixMilliseconds: event.time)) · \(data.lanes[event.lane]): \(event.label)")
        }
        canvas.text("UTC", x: right, y: bottom + 32, anchor: "end", colour: "#666666")
        return bottom + 40
    }

    /// The row of each event within its lane: the first row whose last marker is far enough to its left (events in
    /// time order); and how many rows each lane needs.
    private func rows(x: (Int64) -> Double) -> (row: [Int], rowCounts: [Int]) {
        var row = [Int](repeating: 0, count: data.events.count)
        var rowCounts = [Int](repeating: 1, count: data.lanes.count)
        var lastX: [[Double]] = Array(repeating: [], count: data.lanes.count)
        let order = data.events.indices.sorted { (data.events[$0].time, $0) < (data.events[$1].time, $1) }
        for index in order where data.lanes.indices.contains(data.events[index].lane) {
            let lane = data.events[index].lane
            let position = x(data.events[index].time)
            var chosen = lastX[lane].firstIndex { position - $0 >= markerSpacing }
            if chosen == nil {
                if lastX[lane].count < maximumRows {
                    lastX[lane].append(-.infinity)
                    chosen = lastX[lane].count - 1
                } else {
                    chosen = lastX[lane].indices.min { lastX[lane][$0] < lastX[lane][$1] }
                }
            }
            let rowIndex = chosen ?? 0
            lastX[lane][rowIndex] = position
            row[index] = rowIndex
            rowCounts[lane] = max(rowCounts[lane], lastX[lane].count)
        }
        return (row, rowCounts)
    }

    /// The first instant of every UTC month inside the span, labelled `YYYY-MM`.
    private func monthStarts() -> [(time: Int64, label: String)] {
        let day: Int64 = CivilCalendar.millisecondsPerDay
        let first = CivilCalendar.civilFromDays(floorDivide(data.start, day))
        var year = first.year
        var month = first.month + 1
        if month > 12 { (year, month) = (year + 1, 1) }
        var ticks: [(Int64, String)] = []
        while ticks.count < 400 {
            let time = CivilCalendar.daysFromCivil(year: year, month: month, day: 1) * day
            guard time <= data.end else { break }
            ticks.append((time, "\(year)-" + (month < 10 ? "0\(month)" : "\(month)")))
            month += 1
            if month > 12 { (year, month) = (year + 1, 1) }
        }
        return ticks
    }

    /// Midnight UTC of days inside the span, every 1, 2, 7 or 14 days so that at most about eight are labelled
    /// (`MM-DD`); for spans too short for two month ticks.
    private func dayStarts() -> [(time: Int64, label: String)] {
        let day: Int64 = CivilCalendar.millisecondsPerDay
        let firstDay = floorDivide(data.start, day) + 1
        let lastDay = floorDivide(data.end, day)
        let step: Int = [1, 2, 7, 14].first { (lastDay - firstDay) / Int64($0) <= 8 } ?? 28
        var ticks: [(Int64, String)] = []
        var current = firstDay
        while current <= lastDay && ticks.count < 100 {
            let date = CivilCalendar.civilFromDays(current)
            let label = (date.month < 10 ? "0" : "") + "\(date.month)-" + (date.day < 10 ? "0" : "") + "\(date.day)"
            ticks.append((current * day, label))
            current += Int64(step)
        }
        return ticks
    }

    private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
