internal import COpenSSL

/// An immutable, parsed X.509 certificate owned by Swift; the `X509` is freed on deinit.
///
/// `@unchecked Sendable` because OpenSSL only reads an `X509` once it is parsed, which is safe across threads.
final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Parses DER, or returns nil if the bytes are not exactly one certificate.
    init?(der: [UInt8]) {
        var parsed: OpaquePointer?
        var consumed = 0
        der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var cursor: UnsafePointer<UInt8>? = base
            parsed = d2i_X509(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - base }
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        // Trailing bytes mean the input was not a single certificate; reject rather than ignore them.
        guard consumed == der.count else {
            X509_free(parsed)
            return nil
        }
        pointer = parsed
    }

    /// Wraps a certificate the caller already holds a reference to, taking a new reference.
    init(retaining cert: OpaquePointer) {
        iaplens_x509_up_ref(cert)
        pointer = cert
    }

    deinit { X509_free(pointer) }

    /// `notBefore` in seconds since 1970, or nil if the field cannot be read.
    var notBefore: Int64? { Self.epochSeconds(X509_get0_notBefore(pointer)) }

    /// `notAfter` in seconds since 1970, or nil if the field cannot be read.
    var notAfter: Int64? { Self.epochSeconds(X509_get0_notAfter(pointer)) }

    /// The subject as a one-line string, for messages.
    var subjectDescription: String {
        guard let name = X509_get_subject_name(pointer) else { return "(no subject)" }
        var buffer = [CChar](repeating: 0, count: 256)
        X509_NAME_oneline(name, &buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when an extension with the dotted OID is present (critical or not).
    func hasExtension(oid: String) -> Bool {
        let count = X509_get_ext_count(pointer)
        var buffer = [CChar](repeating: 0, count: 128)
        for index in 0..<count {
            guard let ext = X509_get_ext(pointer, index), let object = X509_EXTENSION_get_object(ext) else { continue }
            let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
            guard length > 0, Int(length) < buffer.count else { continue }
            let text = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text == oid { return true }
        }
        return false
    }

    /// Whether this is the same certificate as `other` (OpenSSL compares the cached DER hash).
    func isSame(as other: OpaquePointer) -> Bool { X509_cmp(pointer, other) == 0 }

    /// Converts an ASN.1 time to seconds since 1970 without consulting the local time zone.
    static func epochSeconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time else { return nil }
        var moment = tm()
        guard ASN1_TIME_to_tm(time, &moment) == 1 else { return nil }
        return CivilTime.epochSeconds(
            year: Int64(moment.tm_year) + 1900, month: Int64(moment.tm_mon) + 1, day: Int64(moment.tm_mday),
            hour: Int64(moment.tm_hour), minute: Int64(moment.tm_min), second: Int64(moment.tm_sec)
        )
    }
}
