import CZlib

/// Delivers a file's content in chunks, decompressing gzip (detected by its magic bytes, any number of members).
///
/// Buffers and the `z_stream` live at fixed addresses for the object's lifetime: zlib keeps a pointer back to its
/// stream and checks it on every call, so the stream must never move.
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
    private var stream: UnsafeMutablePointer<z_stream>?
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
                message: "The file is named .gz but does not start with the gzip signature (1f 8b); it is not gzip data."
            )
        } else {
            firstPlainChunkPending = true
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        output?.deallocate()
        input.deallocate()
        file?.release()
    }

    private func startInflating(chunkSize: Int) {
        let pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        pointer.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        pointer.pointee.avail_in = UInt32(inputCount)
        stream = pointer
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 16), alignment: 16)
        if iaplens_inflate_init_gzip(pointer) != Z_OK {
            pendingFailure = FormatFailure(reason: .badGzip, message: "zlib could not start decompressing the file.")
        }
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
        stream.pointee.next_out = outputBase.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(output.count)
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 && !atEndOfFile {
                if let failure = refillInput(stream) { return deliver(output, stream, thenFail: failure) }
            }
            if stream.pointee.avail_in == 0 && atEndOfFile {
                let truncated = atMemberBoundary
                    ? nil
                    : FormatFailure(reason: .badGzip, message: "The gzip data ends early: the file is truncated.")
                return deliver(output, stream, thenFail: truncated, thenEnd: true)
            }
            let availableBefore = stream.pointee.avail_in
            let status = inflate(stream, Z_NO_FLUSH)
            if stream.pointee.avail_in != availableBefore { atMemberBoundary = false }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                // Another member may follow (multi-member gzip, e.g. files appended with `cat`).
                atMemberBoundary = true
                inflateReset(stream)
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                let failure = FormatFailure(reason: .badGzip, message: "The gzip data is corrupt (\(detail)).")
                return deliver(output, stream, thenFail: failure)
            }
        }
        return deliver(output, stream, thenFail: nil)
    }

    private func refillInput(_ stream: UnsafeMutablePointer<z_stream>) -> FormatFailure? {
        guard let file else { return nil }
        do {
            inputCount = try file.fill(input)
        } catch {
            atEndOfFile = true
            return FormatFailure(reason: .unreadableFile, message: error.description)
        }
        atEndOfFile = inputCount < input.count
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(inputCount)
        return nil
    }

    /// Hands out what was decompressed so far; a failure or the end is reported on the following call.
    private func deliver(
        _ output: UnsafeMutableRawBufferPointer,
        _ stream: UnsafeMutablePointer<z_stream>,
        thenFail failure: FormatFailure?,
        thenEnd: Bool = false
    ) -> Chunk {
        let produced = output.count - Int(stream.pointee.avail_out)
        if let failure { pendingFailure = failure } else if thenEnd { finished = true }
        if produced > 0 { return .data(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
        return next()
    }
}
