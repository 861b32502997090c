import Foundation
import IAPFormats
import IAPTestSigning

/// A temporary folder of test input files and outputs, removed when the test ends.
public final class TestArchive: @unchecked Sendable {
    // @unchecked: only used from the test that owns it.
    public let root: String

    public init(_ name: String = #function) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        root = NSTemporaryDirectory() + "iaplens-test-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/input", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    public var inputs: String { root + "/input" }
    public var database: String { root + "/store.sqlite" }
    public var reports: String { root + "/reports" }

    /// Writes lines (one document each) to `input/<name>`; gzip when the name ends in `.gz`.
    @discardableResult
    public func write(_ name: String, lines: [String]) throws -> String {
        let text = lines.map { $0 + "\n" }.joined()
        return try write(name, bytes: Array(text.utf8))
    }

    /// Writes raw bytes to `input/<name>` (gzip-compressed first when the name ends in `.gz`).
    @discardableResult
    public func write(_ name: String, bytes: [UInt8], compress: Bool = true) throws -> String {
        let path = inputs + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let data = name.hasSuffix(".gz") && compress ? (Gzip.compress(bytes) ?? bytes) : bytes
        try Data(data).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes the trusted test root as PEM and returns its path.
    public func trustedRoot() throws -> String {
        let path = root + "/root.pem"
        try TestChains.trusted.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Reads a report file as text.
    public func report(_ relative: String) throws -> String {
        try String(contentsOfFile: reports + "/" + relative, encoding: .utf8)
    }
}
