import CISAL

/// Delivers a file's content in chunks, decompressing gzip (detected by its magic bytes, any number of members).
///
/// Gzip goes through Intel's ISA-L rather than zlib: it inflates the same streams, checks the same CRC-32 and size
/// trailers, and in ingest's reader thread took about 55 % of zlib's time on notification archives
/// (Documentation/Performance.md, "Reading through ISA-L"). Buffers and the inflate state live at fixed addresses for the
/// object's lifetime.
final class ChunkSource {
    /// Outcome of one ``next()`` call.
    enum Chunk {
        /// Bytes valid until the next call.
        case data(UnsafeRawBufferPointer)
        /// End of content.
        case end
        /// Reading stopped; nothing more will be delivered.
        case failure(FormatFailure)
    }

    static let defaultChunkSize = 256 << 10

    private let file: POSIXFile?
    private let input: UnsafeMutableRawBufferPointer
    private var output: UnsafeMutableRawBufferPointer?
    private var stream: UnsafeMutablePointer<inflate_state>?
    private var inputCount = 0
    private var atEndOfFile = false
    private var finished = false
    private var pendingFailure: FormatFailure?
    /// `true` right after a gzip member ended: end of file here is a clean end, not a truncation.
    private var atMemberBoundary = false
    /// The first chunk, read before we know whether the file is gzip, handed out by the first plain ``next()``.
    private var firstPlainChunkPending = false

    /// - Parameters:
    ///   - limit: Read at most this many bytes of the file (its size when it was hashed).
    ///   - digest: Absorbs every byte read from the file (compressed bytes for gzip).
    init(
        file inputFile: InputFile, chunkSize: Int = ChunkSource.defaultChunkSize, limit: Int64? = nil,
        digest: StreamingDigest? = nil
    ) {
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 16), alignment: 16)
        var opened: POSIXFile?
        do {
            let handle = try POSIXFile(path: inputFile.path, limit: limit, digest: digest)
            opened = handle
            inputCount = try handle.fill(input)
            atEndOfFile = inputCount < input.count
        } catch {
            file = opened
            pendingFailure = FormatFailure(reason: .unreadableFile, message: error.description)
            return
        }
        file = opened
        let isGzip = inputCount >= 2 && input[0] == 0x1F && input[1] == 0x8B
        if isGzip {
            startInflating(chunkSize: chunkSize)
        } else if inputFile.isNamedGzip && inputCount > 0 {
            pendingFailure = FormatFailure(
                reason: .badGzip,
                message:
                    "The file is named .gz but does not start with the gzip signature (1f 8b); it is not gzip data."
            )
        } else {
            firstPlainChunkPending = true
        }
    }

    deinit {
        if let stream { iaplens_gunzip_free(stream) }
        output?.deallocate()
        input.deallocate()
        file?.release()
    }

    private func startInflating(chunkSize: Int) {
        guard let state = iaplens_gunzip_new() else {
            pendingFailure = FormatFailure(
                reason: .badGzip, message: "There was no memory to start decompressing the file.")
            return
        }
        iaplens_gunzip_set_input(state, input.baseAddress, UInt32(inputCount))
        stream = state
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 16), alignment: 16)
    }

    /// Reads the rest of the file's bytes (up to the limit) without using them, so the digest covers every byte
    /// even when decompression stopped at damage.
    func drain() {
        guard let file else { return }
        while (try? file.fill(input)) ?? 0 > 0 {}
    }

    /// The next chunk of content.
    func next() -> Chunk {
        if let failure = pendingFailure {
            pendingFailure = nil
            finished = true
            return .failure(failure)
        }
        if finished { return .end }
        if stream != nil { return inflateNext() }
        return readPlainNext()
    }

    private func readPlainNext() -> Chunk {
        if firstPlainChunkPending {
            firstPlainChunkPending = false
            if inputCount > 0 { return .data(UnsafeRawBufferPointer(rebasing: input[0..<inputCount])) }
        }
        guard !atEndOfFile, let file else {
            finished = true
            return .end
        }
        do {
            inputCount = try file.fill(input)
        } catch {
            finished = true
            return .failure(FormatFailure(reason: .unreadableFile, message: error.description))
        }
        atEndOfFile = inputCount < input.count
        if inputCount == 0 {
            finished = true
            return .end
        }
        return .data(UnsafeRawBufferPointer(rebasing: input[0..<inputCount]))
    }

    private func inflateNext() -> Chunk {
        guard let stream, let output, let outputBase = output.baseAddress else {
            finished = true
            return .end
        }
        iaplens_gunzip_set_output(stream, outputBase, UInt32(output.count))
        while iaplens_gunzip_avail_out(stream) > 0 {
            if iaplens_gunzip_avail_in(stream) == 0 && !atEndOfFile {
                if let failure = refillInput(stream) { return deliver(output, stream, thenFail: failure) }
            }
            if iaplens_gunzip_avail_in(stream) == 0 && atEndOfFile {
                let truncated =
                    atMemberBoundary
                    ? nil
                    : FormatFailure(reason: .badGzip, message: "The gzip data ends early: the file is truncated.")
                return deliver(output, stream, thenFail: truncated, thenEnd: true)
            }
            let availableBefore = iaplens_gunzip_avail_in(stream)
            let roomBefore = iaplens_gunzip_avail_out(stream)
            let status = iaplens_gunzip(stream)
            if iaplens_gunzip_avail_in(stream) != availableBefore { atMemberBoundary = false }
            let memberEnded = iaplens_gunzip_member_finished(stream) != 0
            // A call that neither read nor wrote nor ended a member would repeat forever: the data is damaged.
            let stalled =
                !memberEnded && iaplens_gunzip_avail_in(stream) == availableBefore
                && iaplens_gunzip_avail_out(stream) == roomBefore
            if status < 0 || stalled {
                let failure = FormatFailure(
                    reason: .badGzip, message: "The gzip data is corrupt (\(Self.describe(status))).")
                return deliver(output, stream, thenFail: failure)
            }
            if memberEnded {
                // Another member may follow (multi-member gzip, e.g. files appended with `cat`).
                atMemberBoundary = true
                iaplens_gunzip_next_member(stream)
            }
        }
        return deliver(output, stream, thenFail: nil)
    }

    /// ISA-L's error codes as the words a user can check the file against.
    private static func describe(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: "invalid deflate block"
        case ISAL_INVALID_SYMBOL: "invalid deflate symbol"
        case ISAL_INVALID_LOOKBACK: "invalid back-reference distance"
        case ISAL_INVALID_WRAPPER: "invalid gzip header or trailer"
        case ISAL_UNSUPPORTED_METHOD: "compression method other than deflate"
        case ISAL_INCORRECT_CHECKSUM: "CRC-32 or length does not match the data"
        case ISAL_DECOMP_OK: "the decompressor stopped making progress"
        default: "error \(status)"
        }
    }

    private func refillInput(_ stream: UnsafeMutablePointer<inflate_state>) -> FormatFailure? {
        guard let file else { return nil }
        do {
            inputCount = try file.fill(input)
        } catch {
            atEndOfFile = true
            return FormatFailure(reason: .unreadableFile, message: error.description)
        }
        atEndOfFile = inputCount < input.count
        iaplens_gunzip_set_input(stream, input.baseAddress, UInt32(inputCount))
        return nil
    }

    /// Hands out what was decompressed so far; a failure or the end is reported on the following call.
    private func deliver(
        _ output: UnsafeMutableRawBufferPointer,
        _ stream: UnsafeMutablePointer<inflate_state>,
        thenFail failure: FormatFailure?,
        thenEnd: Bool = false
    ) -> Chunk {
        let produced = output.count - Int(iaplens_gunzip_avail_out(stream))
        if let failure { pendingFailure = failure } else if thenEnd { finished = true }
        if produced > 0 { return .data(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
        return next()
    }
}
