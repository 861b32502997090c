import Foundation

/// The one rule for text the store keeps, applied by both engines before they see it (every bound parameter and
/// every COPY field), so an accepted input reads back the same on SQLite and PostgreSQL: U+0000 becomes U+FFFD.
/// PostgreSQL cannot store a NUL in text at all, and SQLite keeps it but C strings read back only what comes
/// before it. Other control characters are kept as they are (both engines store them; the pages escape them).
enum StoredText {
    /// On ingest's hot path (every bound string): `memchr` over the UTF-8 in place, a copy only when a NUL is there.
    static func storable(_ text: String) -> String {
        var probe = text
        let hasNUL = probe.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
        return hasNUL ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }
}
