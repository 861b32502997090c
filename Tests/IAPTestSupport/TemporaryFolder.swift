import Foundation
import IAPFormats

/// A fresh folder under the system temporary directory, removed when the value is released.
public final class TemporaryFolder {
    public let path: String

    public init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/iapformats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> InputFile {
        let full = path + "/" + name
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return InputFile(path: full, byteCount: Int64(bytes.count))
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> InputFile {
        try write(name, Array(text.utf8))
    }
}

/// Gzip-compresses text for fixtures; fails the test loudly if zlib fails.
public func gzip(_ text: String) throws -> [UInt8] {
    guard let compressed = Gzip.compress(Array(text.utf8)) else { throw FixtureError.compressionFailed }
    return compressed
}

public enum FixtureError: Error { case compressionFailed }
