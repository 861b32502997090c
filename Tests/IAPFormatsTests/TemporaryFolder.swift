import Foundation
import IAPFormats

/// A fresh folder under the system temporary directory, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/iapformats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> InputFile {
        let full = path + "/" + name
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return InputFile(path: full, byteCount: Int64(bytes.count))
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> InputFile {
        try write(name, Array(text.utf8))
    }
}

/// Gzip-compresses text for fixtures; fails the test loudly if zlib fails.
func gzip(_ text: String) throws -> [UInt8] {
    guard let compressed = Gzip.compress(Array(text.utf8)) else { throw FixtureError.compressionFailed }
    return compressed
}

enum FixtureError: Error { case compressionFailed }

/// Reads every result of a file, turning documents into text for readable expectations.
func readAll(_ file: InputFile, maxDocumentBytes: Int = DocumentReader.defaultMaxDocumentBytes) -> [ReadItem] {
    DocumentReader(file: file, maxDocumentBytes: maxDocumentBytes).map { result in
        switch result {
        case .document(let line, let bytes): .document(line, String(decoding: bytes, as: UTF8.self))
        case .failure(let line, let failure): .failure(line, failure.reason)
        }
    }
}

enum ReadItem: Equatable, CustomStringConvertible {
    case document(Int, String)
    case failure(Int, FormatFailureReason)

    var description: String {
        switch self {
        case .document(let line, let text): "doc@\(line) \(text.prefix(40))"
        case .failure(let line, let reason): "fail@\(line) \(reason.rawValue)"
        }
    }
}
