import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the simulator writes: a file failed to open or write.
public struct SimulationIOError: Error, Sendable, CustomStringConvertible {
    /// The file or directory concerned.
    public let path: String
    /// What went wrong.
    public let detail: String

    /// One sentence for the command line.
    public var description: String {
        "Could not write \(path) (\(detail)); check the directory is writable and has space."
    }
}

/// An append-only output file, plain or gzip (one member, fixed header with mtime 0, so bytes are reproducible).
final class OutputFile {
    let path: String
    private let handle: UnsafeMutablePointer<FILE>
    private var stream = z_stream()
    private let gzip: Bool
    private var outBuffer = [UInt8](repeating: 0, count: 1 << 16)
    private var closed = false

    init(path: String, gzip: Bool) throws(SimulationIOError) {
        self.path = path
        guard let handle = fopen(path, "wb") else {
            throw SimulationIOError(path: path, detail: String(cString: strerror(errno)))
        }
        self.handle = handle
        self.gzip = gzip
        // Level 1: compression runs on the single writer thread while the shards sign on the other
        // cores, and level 6 made it the bottleneck of large runs (base64 text gains little from more
        // effort). zlib's own gzip wrapper writes a header with mtime 0, so output stays byte-identical.
        if gzip, iaplens_deflate_init_gzip(&stream, 1) != Z_OK {
            fclose(handle)
            throw SimulationIOError(path: path, detail: "zlib deflateInit2 failed")
        }
    }

    deinit {
        if !closed {
            if gzip { deflateEnd(&stream) }
            fclose(handle)
        }
    }

    /// Appends `text` and a newline.
    func writeLine(_ text: String) throws(SimulationIOError) {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        try write(bytes)
    }

    /// Appends raw bytes.
    func write(_ bytes: [UInt8]) throws(SimulationIOError) {
        if !gzip {
            try raw(bytes)
        } else {
            try deflateBytes(bytes, flush: Z_NO_FLUSH)
        }
    }

    /// Flushes, ends the gzip member and closes the file.
    func close() throws(SimulationIOError) {
        guard !closed else { return }
        closed = true
        if gzip {
            try deflateBytes([], flush: Z_FINISH)
            deflateEnd(&stream)
        }
        guard fclose(handle) == 0 else { throw SimulationIOError(path: path, detail: String(cString: strerror(errno))) }
    }

    private func raw(_ bytes: [UInt8]) throws(SimulationIOError) {
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
        guard written == bytes.count else {
            throw SimulationIOError(path: path, detail: String(cString: strerror(errno)))
        }
    }

    private func deflateBytes(_ bytes: [UInt8], flush: Int32) throws(SimulationIOError) {
        var input = bytes
        var failure: SimulationIOError?
        input.withUnsafeMutableBufferPointer { inPtr in
            outBuffer.withUnsafeMutableBufferPointer { outPtr in
                stream.next_in = inPtr.baseAddress
                stream.avail_in = UInt32(inPtr.count)
                repeat {
                    stream.next_out = outPtr.baseAddress
                    stream.avail_out = UInt32(outPtr.count)
                    let status = deflate(&stream, flush)
                    guard status != Z_STREAM_ERROR else {
                        failure = SimulationIOError(path: path, detail: "zlib deflate failed"); return
                    }
                    let produced = outPtr.count - Int(stream.avail_out)
                    if produced > 0, fwrite(outPtr.baseAddress, 1, produced, handle) != produced {
                        failure = SimulationIOError(path: path, detail: String(cString: strerror(errno)))
                        return
                    }
                    if flush == Z_FINISH && status == Z_STREAM_END { break }
                } while stream.avail_out == 0 || (flush == Z_FINISH)
                stream.next_in = nil
            }
        }
        if let failure { throw failure }
    }
}
