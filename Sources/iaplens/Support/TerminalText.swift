/// Text made safe to print on a terminal. Quarantine messages, paths and labels can carry bytes from hostile
/// documents and file names; printed as they are, an ESC or BEL byte would drive the terminal (move the cursor,
/// rewrite earlier lines, change the title). Every control character but newline is shown as `\u{…}` instead.
enum TerminalText {
    static func safe(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < 0x20 && value != 0x0A) || value == 0x7F || (0x80...0x9F).contains(value) {
                out += "\\u{" + String(value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
