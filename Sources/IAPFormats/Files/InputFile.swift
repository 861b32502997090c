/// One input file found by ``InputDiscovery``.
public struct InputFile: Sendable, Hashable {
    /// The path as discovered (the given path, or a folder path joined with the names below it).
    public let path: String
    /// The file's size on disk, in bytes (compressed size for `.gz`).
    public let byteCount: Int64

    /// Creates an input file description.
    public init(path: String, byteCount: Int64) {
        self.path = path
        self.byteCount = byteCount
    }

    /// How the (decompressed) content is split into documents, judged by the name with any `.gz` removed:
    /// `.json` is one document per file; everything else is one document per line.
    public var layout: InputLayout {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        return name.hasSuffix(".json") ? .wholeFile : .lines
    }

    /// `true` when the name ends in `.gz` (case-insensitive).
    public var isNamedGzip: Bool { path.lowercased().hasSuffix(".gz") }
}

/// How a file's content is split into documents.
public enum InputLayout: Sendable, Equatable {
    /// One document per line (`.jsonl`, `.ndjson`).
    case lines
    /// The whole file is one document (`.json`).
    case wholeFile
}
