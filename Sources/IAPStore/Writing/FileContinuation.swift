/// What a file's identity needs when the file changes between runs, written once for both engines.
///
/// A file is known by the SHA-256 of its bytes. A monthly `.jsonl` that grows between runs gets a new hash; read
/// again from the start under it, its accepted documents would deduplicate, but every quarantined, TEST and
/// other-environment copy, and the file itself, would count twice. So when the new bytes begin with an earlier
/// state's bytes (same path), that state's rows are re-keyed to the new hash first: reading the whole file then
/// meets its old lines under keys that already exist (`on conflict do nothing`), and the store ends as if the file
/// had been read once, whole. The old state's last line is not carried over: it may have been cut mid-line and
/// completed since, so it is read again.
public enum FileContinuation {
    /// Re-keys the rows of `old` to `new` (already registered), except those of its last line, and removes `old`.
    public static func continueFile(_ old: String, as new: String, on connection: any StoreConnection) throws {
        let lastLine = "(SELECT max(line) FROM documents WHERE file_sha256 = ?)"
        _ = try connection.execute(
            """
            INSERT INTO documents
                (file_sha256, line, entry, kind, outcome, document_id, environment, document_time, is_verified)
            SELECT ?, line, entry, kind, outcome, document_id, environment, document_time, is_verified
            FROM documents WHERE file_sha256 = ? AND line < \(lastLine)
            ON CONFLICT DO NOTHING
            """, [.text(new), .text(old), .text(old)])
        _ = try connection.execute(
            """
            INSERT INTO quarantine (file_sha256, line, entry, path, reason, message, excerpt)
            SELECT ?, line, entry, path, reason, message, excerpt
            FROM quarantine WHERE file_sha256 = ? AND line < \(lastLine)
            ON CONFLICT DO NOTHING
            """, [.text(new), .text(old), .text(old)])
        try forget(old, on: connection)
    }

    /// Removes a file's rows (its registration, documents and quarantine), so the next run reads it afresh: a file
    /// that changed while it was read, whose rows match neither its old bytes nor its new ones.
    public static func forget(_ file: String, on connection: any StoreConnection) throws {
        _ = try connection.execute("DELETE FROM quarantine WHERE file_sha256 = ?", [.text(file)])
        _ = try connection.execute("DELETE FROM documents WHERE file_sha256 = ?", [.text(file)])
        _ = try connection.execute("DELETE FROM source_files WHERE file_sha256 = ?", [.text(file)])
    }

    /// Every file the store has registered, read completely or not: the earlier states a file may continue.
    public static func registrations(on connection: any StoreConnection) throws -> [FileRegistration] {
        try connection.rows("SELECT path, file_sha256, byte_count, state FROM source_files").map {
            FileRegistration(
                path: $0[0].text ?? "", sha256: $0[1].text ?? "", byteCount: $0[2].integer ?? 0,
                isComplete: $0[3].text == "complete")
        }
    }
}

/// A file the store has registered: where it was, its content hash, its size then, and whether it was read to
/// the end.
public struct FileRegistration: Sendable, Equatable {
    public let path: String
    public let sha256: String
    public let byteCount: Int64
    public let isComplete: Bool

    public init(path: String, sha256: String, byteCount: Int64, isComplete: Bool = true) {
        self.path = path
        self.sha256 = sha256
        self.byteCount = byteCount
        self.isComplete = isComplete
    }
}

extension [FileRegistration] {
    /// The content hashes of the files read to the end: ingest skips files with these contents.
    public var completedHashes: Set<String> { Set(filter(\.isComplete).map(\.sha256)) }
}
