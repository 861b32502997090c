import Foundation

/// Certificates already parsed, keyed by their exact `x5c` text, so that a chain which fails validation (and so is
/// not in ``ChainCache``) is not parsed again for every document that carries it.
///
/// Why: OpenSSL 3 decodes a certificate's public key through its provider decoders, and parsing the two certificates
/// of a chain costs hundreds of microseconds. A real-shaped archive carries a few hundred documents signed by another
/// root, each parsed in full until this cache: about 1 % of a verified ingest's CPU (Documentation/Performance.md,
/// "Ingest's text bound in place"). Validation itself still runs every time, so a failure is re-derived exactly as before; only the
/// parse is shared. Bounded like ``ChainCache``, so hostile input cannot grow memory.
final class ParsedCertificates: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: X509Certificate] = [:]
    private let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The certificate parsed from `text` earlier, if it is still held.
    func certificate(for text: String) -> X509Certificate? {
        lock.lock()
        defer { lock.unlock() }
        return entries[text]
    }

    /// Keeps `certificate` for `text`, evicting an arbitrary entry when full.
    func store(_ certificate: X509Certificate, for text: String) {
        lock.lock()
        defer { lock.unlock() }
        if entries[text] == nil, entries.count >= capacity {
            entries.remove(at: entries.startIndex)
        }
        entries[text] = certificate
    }

    /// How many certificates are held.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}
