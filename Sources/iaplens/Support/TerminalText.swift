/// Text made safe to print on a terminal or into a log. Quarantine messages, paths, IDs and the error bodies of
/// Apple's APIs can carry bytes from hostile documents, file names and servers; printed as they are, an ESC or BEL
/// byte would drive the terminal (move the cursor, rewrite earlier lines, change the title), a newline would start a
/// forged log line, and a bidirectional control (U+202E) would show text in another order than it is. Each is shown
/// as `\u{…}` instead.
enum TerminalText {
    /// For a log line: one event per line, so every control character is escaped, newlines included.
    static func logLine(_ text: String) -> String { escaped(text, keepingNewlines: false) }

    /// For a result on standard output, whose own layout has lines: newlines are kept, everything else escaped.
    static func safe(_ text: String) -> String { escaped(text, keepingNewlines: true) }

    static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let control =
                (value < 0x20 && !(keepingNewlines && value == 0x0A)) || value == 0x7F || (0x80...0x9F).contains(value)
            if control || isBidirectionalControl(value) {
                out += "\\u{" + String(value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The marks and embeddings that reorder displayed text: ALM, LRM, RLM, LRE…RLO, LRI…PDI.
    static func isBidirectionalControl(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}
