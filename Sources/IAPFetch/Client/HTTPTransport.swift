import CCurl
import Foundation
import Synchronization

/// HTTPS to Apple's APIs through libcurl (Debian's `libcurl4-openssl-dev`): a batch job's few thousand requests need
/// nothing more, and building a second HTTP stack cost the first build minutes (Documentation/Performance.md,
/// "Decision records").
///
/// Each request is sent once, on a thread of its own, and read whole, under the rules ``RetryingExchange`` states:
/// - a redirect is never followed: the 3xx itself is the answer, and ``RetryingExchange`` refuses it;
/// - the body is written into memory by libcurl's write callback, which stops the transfer the moment it would pass
///   `limit` bytes (``BodyTooLarge``): memory holds at most the limit, however much the server sends;
/// - cancelling the calling task stops the transfer at libcurl's next progress call (how ``RetryingExchange``
///   bounds an attempt's time); a connection that sends nothing for the idle timeout is dropped;
/// - no cookies, no credentials and no decoding of the body: Apple's bytes as sent.
///
/// `@unchecked Sendable`: the handles kept for reuse are only touched under `lock`, each by one transfer at a time.
final class HTTPTransport: @unchecked Sendable {
    /// What one request got.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        /// The `Retry-After` header as sent, if any.
        var retryAfter: String?
    }

    /// The body grew past the limit; the transfer was stopped.
    struct BodyTooLarge: Error {}

    /// The transfer failed before a whole answer arrived: libcurl's sentence for it.
    struct TransferFailed: Error, CustomStringConvertible {
        let description: String
    }

    private let idleSeconds: Int
    private let reusesConnections: Bool
    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []

    /// - Parameters:
    ///   - idleTimeout: the longest wait for the next bytes of an answer.
    ///   - reusesConnections: false for requests that act: each then opens a connection of its own and closes it.
    ///     libcurl sends a request again by itself when a reused connection closes before any answer; for an action
    ///     that may already have reached Apple, that would be a second action.
    init(idleTimeout: Duration, reusesConnections: Bool = true) {
        _ = Self.globalInit
        idleSeconds = max(1, Int(idleTimeout.components.seconds))
        self.reusesConnections = reusesConnections
    }

    deinit { shutdown() }

    /// Closes the connections kept for reuse.
    func shutdown() {
        let handles = lock.withLock { () -> [UnsafeMutableRawPointer] in
            defer { idle = [] }
            return idle
        }
        for handle in handles { curl_easy_cleanup(handle) }
    }

    /// libcurl's global state, set up once per process before any handle exists.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Sends one request and reads the whole answer, at most `limit` bytes of body.
    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?, limit: Int) async throws
        -> Answer
    {
        let transfer = Transfer(limit: limit)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                let thread = Thread { [self] in
                    continuation.resume(
                        with: Result { try perform(transfer, method: method, url: url, headers: headers, body: body) })
                }
                thread.name = "iaplens.http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// One transfer's state, shared with libcurl's callbacks (through an unmanaged pointer) and with cancellation.
    private final class Transfer: @unchecked Sendable {
        let limit: Int
        var body: [UInt8] = []
        var retryAfter: String?
        var tooLarge = false
        private let cancelled = Atomic<Bool>(false)

        init(limit: Int) { self.limit = limit }

        func cancel() { cancelled.store(true, ordering: .relaxed) }
        var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    private func perform(
        _ transfer: Transfer, method: String, url: String, headers: [(String, String)], body: [UInt8]?
    ) throws -> Answer {
        if transfer.isCancelled { throw CancellationError() }
        guard let handle = reusesConnections ? (lock.withLock { idle.popLast() } ?? curl_easy_init()) : curl_easy_init()
        else {
            throw TransferFailed(description: "libcurl could not start a transfer")
        }
        var reusable = reusesConnections
        defer {
            if reusable { lock.withLock { idle.append(handle) } } else { curl_easy_cleanup(handle) }
        }
        curl_easy_reset(handle)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        // libcurl adds "Expect: 100-continue" to bodies over 1 KB; Apple's API does not need the extra round trip.
        list = curl_slist_append(list, "Expect:")
        defer { curl_slist_free_all(list) }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            iaplens_curl_set_string(handle, CURLOPT_URL, url)
            iaplens_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            iaplens_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            iaplens_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            iaplens_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, 10)
            // Fewer than 1 byte a second for the idle timeout ends the transfer.
            iaplens_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            iaplens_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, idleSeconds)
            iaplens_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            if !reusesConnections {
                iaplens_curl_set_long(handle, CURLOPT_FRESH_CONNECT, 1)
                iaplens_curl_set_long(handle, CURLOPT_FORBID_REUSE, 1)
            }
            iaplens_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))
            iaplens_curl_set_string(handle, CURLOPT_USERAGENT, "iaplens")
            iaplens_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, Self.write)
            iaplens_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            iaplens_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, Self.header)
            iaplens_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            iaplens_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            iaplens_curl_set_progress_callback(handle, Self.progress)
            iaplens_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
            iaplens_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
            if method == "GET" { iaplens_curl_set_long(handle, CURLOPT_HTTPGET, 1) }
            guard let body else { return curl_easy_perform(handle) }
            // The body is read from this array while the transfer runs (POSTFIELDS, no copy); one byte more than
            // its size, so that even an empty body has an address.
            let bytes = body + [0]
            return bytes.withUnsafeBytes { buffer in
                iaplens_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                iaplens_curl_set_pointer(
                    handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                return curl_easy_perform(handle)
            }
        }
        if code != CURLE_OK {
            // A connection that failed is not offered to the next request.
            reusable = false
            if transfer.tooLarge { throw BodyTooLarge() }
            if transfer.isCancelled { throw CancellationError() }
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw TransferFailed(description: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
        return Answer(status: iaplens_curl_response_code(handle), body: transfer.body, retryAfter: transfer.retryAfter)
    }

    /// libcurl's write callback: appends the bytes, or returns 0 (which stops the transfer) past the limit.
    private static let write: iaplens_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = size * count
        if transfer.body.count + bytes > transfer.limit {
            transfer.tooLarge = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: bytes) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: bytes))
        }
        return bytes
    }

    /// libcurl's header callback: keeps `Retry-After` of the final answer.
    private static let header: iaplens_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = size * count
        let line = data.withMemoryRebound(to: UInt8.self, capacity: bytes) {
            String(decoding: UnsafeBufferPointer(start: $0, count: bytes), as: UTF8.self)
        }
        // A status line starts the headers of the next answer (after a 100 Continue): forget the previous ones.
        if line.hasPrefix("HTTP/") { transfer.retryAfter = nil }
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == "retry-after" {
            transfer.retryAfter = parts[1].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return bytes
    }

    /// libcurl's progress callback: a non-zero answer stops a cancelled transfer.
    private static let progress: iaplens_curl_progress_callback = { context, _, _, _, _ in
        guard let context else { return 0 }
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
    }
}
