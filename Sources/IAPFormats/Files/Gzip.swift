import CZlib

/// Whole-buffer gzip compression, for writing fixtures and simulated archives that ``DocumentReader`` reads back.
public enum Gzip {
    /// Compresses `bytes` into one gzip member.
    /// - Parameters:
    ///   - bytes: The data to compress.
    ///   - level: zlib level, 0 (store) to 9 (smallest); 6 by default.
    /// - Returns: The gzip member, or `nil` if zlib fails (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard iaplens_deflate_init_gzip(stream, level) == Z_OK else { return nil }
        defer { deflateEnd(stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.pointee.next_in = inputBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inputBuffer.count)
                stream.pointee.next_out = outputBuffer.baseAddress
                stream.pointee.avail_out = UInt32(outputBuffer.count)
                return deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.pointee.avail_out))
        return output
    }
}
