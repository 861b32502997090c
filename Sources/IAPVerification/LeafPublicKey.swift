internal import COpenSSL
import Foundation

/// A leaf certificate's P-256 public key, parsed once and shared read-only by every verification that uses it.
///
/// Apple signs months of notifications with one leaf key, so once a key has checked `tableAfter` signatures it
/// builds a ``PrecomputedKey`` and checks the rest with it; until then, and whenever the table cannot be built,
/// it checks through `EVP_PKEY_verify`. Both give the same verdict (`LeafPublicKeyTests`).
///
/// `@unchecked Sendable`: OpenSSL 3 allows concurrent operations on one `EVP_PKEY` as long as nobody modifies it.
/// Each verification borrows a verify context of its own from `idle` (under `lock`), so no context is ever
/// used by two threads at once; `table` is only changed under `lock` and is read-only once built.
final class LeafPublicKey: @unchecked Sendable {
    /// How many signatures a key checks through EVP before it builds its table. The table costs about 20 ms to
    /// build, what about 500 checks save with it, so a key that signs a handful of documents never pays for one.
    static let defaultTableAfter = 1_000

    private let pointer: OpaquePointer
    private let tableAfter: Int
    private var table: TableState
    /// Verify contexts already initialised for this key, ready for another `EVP_PKEY_verify`. Creating and
    /// initialising one per signature (a provider lookup and a copy of the key) cost 4 % of each verification:
    /// 22,300 against 23,300 verifies per second on one core, the rate `openssl speed ecdsap256` reports.
    /// At most one per thread that verifies at the same time.
    private var idle: [OpaquePointer] = []
    private let lock = NSLock()

    private enum TableState {
        /// Counting the checks made without a table.
        case waiting(checks: Int)
        /// One thread is building it; the others keep checking through EVP meanwhile.
        case building
        case ready(PrecomputedKey)
        /// OpenSSL could not build it: every check goes through EVP.
        case unavailable
    }

    /// Takes the key out of a certificate, or returns nil unless it is an EC key on P-256 (ES256 requires one).
    /// - Parameter tableAfter: the signatures checked through EVP before the key's table is built (0: at once).
    convenience init?(certificate: X509Certificate, tableAfter: Int = LeafPublicKey.defaultTableAfter) {
        guard let key = X509_get_pubkey(certificate.pointer) else {
            ERR_clear_error()
            return nil
        }
        self.init(owning: key, tableAfter: tableAfter)
    }

    /// Takes a key given as a DER SubjectPublicKeyInfo (as test vectors give keys), or returns nil unless it is a
    /// P-256 key.
    convenience init?(subjectPublicKeyInfo der: [UInt8], tableAfter: Int = LeafPublicKey.defaultTableAfter) {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key = parsed else {
            ERR_clear_error()
            return nil
        }
        self.init(owning: key, tableAfter: tableAfter)
    }

    /// Keeps `key` when it is an EC key on P-256; otherwise frees it and returns nil.
    private init?(owning key: OpaquePointer, tableAfter: Int) {
        var curveName = [CChar](repeating: 0, count: 64)
        var nameLength = 0
        let isP256 =
            EVP_PKEY_get_base_id(key) == EVP_PKEY_EC
            && EVP_PKEY_get_group_name(key, &curveName, curveName.count, &nameLength) == 1
            && String(decoding: curveName.prefix(nameLength).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                == "prime256v1"
        guard isP256 else {
            EVP_PKEY_free(key)
            return nil
        }
        pointer = key
        self.tableAfter = max(0, tableAfter)
        // A key that never builds its table (the reference path) does not count its checks either.
        table = tableAfter == .max ? .unavailable : .waiting(checks: 0)
    }

    deinit {
        for context in idle { EVP_PKEY_CTX_free(context) }
        EVP_PKEY_free(pointer)
    }

    /// Verifies a raw `r‖s` ES256 signature (RFC 7518 §3.4) over an already computed SHA-256 digest.
    func verify(sha256Digest digest: [UInt8], rawSignature: [UInt8]) -> Bool {
        guard digest.count == 32, rawSignature.count == ECDSASignature.es256RawLength else { return false }
        if let precomputed = precomputedKey(),
            let verdict = precomputed.verify(sha256Digest: digest, rawSignature: rawSignature)
        {
            return verdict
        }
        guard let der = ECDSASignature.derFromRaw(rawSignature) else { return false }
        return verify(sha256Digest: digest, derSignature: der)
    }

    /// Whether this key's table is built (for tests).
    var hasPrecomputedTable: Bool {
        lock.withLock { if case .ready = table { true } else { false } }
    }

    /// The key's table when built; otherwise counts this check, and builds the table on this thread when the count
    /// reaches `tableAfter`.
    private func precomputedKey() -> PrecomputedKey? {
        enum Next { case use(PrecomputedKey), build, evp }
        let next: Next = lock.withLock {
            switch table {
            case .ready(let precomputed): return .use(precomputed)
            case .building, .unavailable: return .evp
            case .waiting(let checks) where checks < tableAfter:
                table = .waiting(checks: checks + 1)
                return .evp
            case .waiting:
                table = .building
                return .build
            }
        }
        switch next {
        case .use(let precomputed): return precomputed
        case .evp: return nil
        case .build:
            let built = encodedPoint().flatMap { PrecomputedKey(encodedPoint: $0) }
            lock.withLock { table = built.map(TableState.ready) ?? .unavailable }
            return built
        }
    }

    /// The key as an encoded point (65 bytes, uncompressed), or nil if OpenSSL cannot give it.
    private func encodedPoint() -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 133)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pointer, "pub", &bytes, bytes.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return Array(bytes.prefix(length))
    }

    /// Verifies a DER ECDSA signature through `EVP_PKEY_verify`, over an already computed SHA-256 digest.
    func verify(sha256Digest digest: [UInt8], derSignature: [UInt8]) -> Bool {
        guard digest.count == 32, let context = borrowContext() else { return false }
        let result = EVP_PKEY_verify(context, derSignature, derSignature.count, digest, digest.count)
        if result == 1 {
            giveBack(context)
        } else {
            // A context that saw an error is not reused: nothing it kept from that call can affect the next one.
            ERR_clear_error()
            EVP_PKEY_CTX_free(context)
        }
        return result == 1
    }

    /// An idle context, or a new one initialised for verifying with this key (nil if OpenSSL refuses).
    private func borrowContext() -> OpaquePointer? {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        guard let context = EVP_PKEY_CTX_new(pointer, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1 else {
            ERR_clear_error()
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return context
    }

    private func giveBack(_ context: OpaquePointer) {
        lock.lock()
        idle.append(context)
        lock.unlock()
    }
}
