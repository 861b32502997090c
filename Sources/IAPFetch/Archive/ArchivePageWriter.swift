import Foundation
import IAPFormats

/// Writes each page Apple answered into the archive as its own file, in the shape `ingest` reads: one line,
/// `{"receivedAt": <ms>, "body": <the page>}`.
///
/// A page file, once written, is never written again: a fetch resumed after a kill that asks for a page it already
/// saved keeps the saved file, so `ingest` never sees the same page twice under two receipt times. Each file is
/// written to a temporary name and renamed, so a killed write leaves no half page where `ingest` looks.
struct ArchivePageWriter: Sendable {
    /// `<archive>/fetched`.
    let root: String

    init(archive: String) {
        root = (archive as NSString).appendingPathComponent("fetched")
    }

    func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relativePath))
    }

    /// Writes the page unless a file of that name exists. - Returns: true when it wrote.
    @discardableResult
    func write(_ page: JSONObject, receivedAt: Int64, to relativePath: String) throws(FetchError) -> Bool {
        let target = path(relativePath)
        if FileManager.default.fileExists(atPath: target) { return false }
        let envelope = JSONValue.object(
            JSONObject([("receivedAt", .number(JSONNumber(receivedAt))), ("body", .object(page))]))
        try write(bytes: envelope.canonicalJSON() + [UInt8(ascii: "\n")], to: relativePath)
        return true
    }

    /// Writes bytes as they came (a gzip report) to a file of the archive, by a temporary name and a rename.
    func write(bytes: [UInt8], to relativePath: String) throws(FetchError) {
        let target = path(relativePath)
        let folder = (target as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(
            ".\((target as NSString).lastPathComponent).partial")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            try handle.synchronize()
            try handle.close()
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.moveItem(atPath: temporary, toPath: target)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .archive(path: target, reason: error.localizedDescription)
        }
    }

    /// Reads a page written earlier (to continue from it without asking Apple again).
    func read(_ relativePath: String) -> JSONObject? {
        guard let data = FileManager.default.contents(atPath: path(relativePath)),
            case .object(let envelope)? = try? JSONParser.parse(Array(data).filter { $0 != UInt8(ascii: "\n") }),
            case .object(let body)? = envelope["body"]
        else { return nil }
        return body
    }

    private func path(_ relativePath: String) -> String {
        (root as NSString).appendingPathComponent(relativePath)
    }

    /// A name safe in a file path for an ID Apple or a user gave.
    /// Letters and digits by the standard library's Unicode properties, not Foundation's `CharacterSet`, whose
    /// shared sets crashed (SIGSEGV) when four refund-history tasks named their folders at once on Linux.
    static func safeName(_ id: String) -> String {
        let cleaned = String(
            id.unicodeScalars.map { scalar -> Character in
                let properties = scalar.properties
                let kept =
                    properties.isAlphabetic || properties.numericType == .decimal
                    || "-_.".unicodeScalars.contains(scalar)
                return kept ? Character(scalar) : "_"
            })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "_" + cleaned : cleaned
    }
}
