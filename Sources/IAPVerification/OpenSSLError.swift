internal import COpenSSL

/// Reads OpenSSL's thread-local error queue into text for messages (also used by IAPTestSigning).
package enum OpenSSLError {
    /// Empties the error queue and returns its entries joined by "; " (or "no detail" when empty).
    package static func drain() -> String {
        var entries: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            ERR_error_string_n(code, &buffer, buffer.count)
            entries.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return entries.isEmpty ? "no detail" : entries.joined(separator: "; ")
    }
}
