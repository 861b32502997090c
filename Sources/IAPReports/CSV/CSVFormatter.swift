import CLibCSV
import IAPAnalytics

/// Turns a ``ReportTable`` into the bytes of a CSV file, exactly as Documentation/Reports.md "CSV conventions" says.
///
/// UTF-8, comma-separated, a header row, `\n` line ends and a final newline. A field is quoted only when it
/// contains a comma, a quote, CR or LF (RFC 4180; the quoting itself is libcsv's `csv_write`). Integers are written
/// plainly, negative ones too; `.empty` is an empty field. A text cell starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'` so spreadsheets do not evaluate it. Rows are written in the order given:
/// analytics sorted them by key values before this guard, as the contract requires.
public struct CSVFormatter {
    /// Renders a table (header row first) as CSV bytes.
    /// - Parameter table: The table; a table without rows renders as its header line only.
    /// - Returns: The file's bytes.
    public static func render(_ table: ReportTable) -> [UInt8] {
        var bytes: [UInt8] = []
        // Headers are column names from the contract, never data, so the formula guard does not apply to them.
        appendRecord(table.columns.map { quotedIfNeeded(Array($0.utf8)) }, to: &bytes)
        for row in table.rows {
            appendRecord(row.map(field), to: &bytes)
        }
        return bytes
    }

    /// The bytes of one cell, guarded and quoted.
    static func field(_ value: ReportValue) -> [UInt8] {
        switch value {
        case .empty:
            return []
        case .integer(let number):
            return Array(String(number).utf8)
        case .text(let text):
            var bytes = Array(text.utf8)
            if let first = bytes.first, formulaTriggers.contains(first) {
                bytes.insert(apostrophe, at: 0)
            }
            return quotedIfNeeded(bytes)
        }
    }

    // MARK: - Private

    private static let apostrophe = UInt8(ascii: "'")
    private static let formulaTriggers: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
    ]
    private static let needsQuoting: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0D, 0x0A]

    private static func appendRecord(_ fields: [[UInt8]], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: field)
        }
        bytes.append(0x0A)
    }

    /// Quotes with libcsv when RFC 4180 requires it; plain fields stay bare so the files diff cleanly.
    private static func quotedIfNeeded(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: needsQuoting.contains) else { return bytes }
        return bytes.withUnsafeBufferPointer { source -> [UInt8] in
            // With no destination, csv_write only measures: it returns the size of the quoted field.
            let size = csv_write(nil, 0, source.baseAddress, source.count)
            var quoted = [UInt8](repeating: 0, count: size)
            let written = quoted.withUnsafeMutableBufferPointer { destination in
                csv_write(destination.baseAddress, destination.count, source.baseAddress, source.count)
            }
            return Array(quoted.prefix(written))
        }
    }
}
