import CZlib
import Foundation

/// Reads a simulated archive back without the simulator's help: files, lines, JSON shapes, JWS segments.
struct ArchiveReader {
    let root: String

    /// Every regular file under the root, relative paths, sorted.
    func files() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                paths.append(path)
            }
        }
        return paths.sorted()
    }

    func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
    }

    /// The file's text, gunzipped when its name ends in `.gz`.
    func text(_ path: String) throws -> String {
        let data = try bytes(path)
        let raw = path.hasSuffix(".gz") ? try Self.gunzip(data) : data
        return String(decoding: raw, as: UTF8.self)
    }

    /// Non-empty lines of a JSON-lines file.
    func lines(_ path: String) throws -> [String] {
        try text(path).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Parses JSON text, nil if broken.
    static func json(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// Decodes a JWS payload segment (base64url) as a JSON object, without verifying.
    static func jwsPayload(_ jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return base64URL(String(parts[1])).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// Decodes a JWS header segment.
    static func jwsHeader(_ jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return base64URL(String(parts[0])).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    static func base64URL(_ text: String) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }

    /// Inflates a gzip file (all members) with zlib.
    static func gunzip(_ data: Data) throws -> Data {
        var output = Data()
        var input = [UInt8](data)
        var stream = z_stream()
        guard iaplens_inflate_init_gzip(&stream) == Z_OK else { throw GunzipError() }
        defer { inflateEnd(&stream) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = input.count
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { inPtr in
            stream.next_in = inPtr.baseAddress
            stream.avail_in = UInt32(count)
            repeat {
                try buffer.withUnsafeMutableBufferPointer { outPtr in
                    stream.next_out = outPtr.baseAddress
                    stream.avail_out = UInt32(outPtr.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else { throw GunzipError() }
                    if let base = outPtr.baseAddress {
                        output.append(base, count: outPtr.count - Int(stream.avail_out))
                    }
                }
            } while status != Z_STREAM_END
        }
        guard stream.avail_in == 0 else { throw GunzipError() }
        return output
    }

    struct GunzipError: Error {}
}
