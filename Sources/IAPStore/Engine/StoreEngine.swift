/// The boundary between iaplens and the database that holds its store. Everything above the store — the loaders,
/// the model runner, the report readers, `status` — talks to this protocol and to ``StoreConnection``;
/// ``SQLiteStore`` (the default, one file) and ``PostgresStore`` (a schema on a PostgreSQL server) implement it.
/// The differences of their SQL live in ``SQLDialect``; the differences of their bulk writes in their
/// ``DocumentWriter``s.
public protocol StoreEngine: AnyObject, Sendable {
    /// The dialect of every connection this engine hands out.
    var dialect: SQLDialect { get }

    /// The schema that holds the store's tables (`main` for SQLite).
    var schema: String { get }

    /// Where the store is, for messages: the file path, or the URL without its password.
    var displayName: String { get }

    /// Runs `body` with a connection, for reading.
    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// Runs `body` in one transaction: all of its writes or none.
    func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// Like ``write(_:)``, with the engine's settings for building the analysis models (page caches, work memory).
    func buildModels<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// Connections to build models on several cores at once, or nil when the engine builds them on one connection
    /// (``buildModels(_:)``): PostgreSQL, an in-memory SQLite store, or fewer than 2 workers asked for.
    func makeModelWorkspace(workers: Int) throws -> (any ModelWorkspace)?

    /// The writer ingest loads documents with.
    func makeDocumentWriter() -> any DocumentWriter

    /// Finishes what a killed run left half done (for SQLite, indexes a bulk load dropped). Runs before anything
    /// else takes the store.
    func finishInterruptedWork() throws
}

extension StoreEngine {
    /// One connection builds every model: the engine's server already works on its own cores (PostgreSQL).
    public func makeModelWorkspace(workers: Int) throws -> (any ModelWorkspace)? { nil }
}

/// A held run lock (see ``StoreLocation/lockForRun(command:)``).
public protocol StoreRunLock: AnyObject, Sendable {}

/// How ingest writes documents: every write is keyed, so writing the same facts twice changes nothing, and each
/// call is one transaction.
public protocol DocumentWriter: Sendable {
    /// Every registered file (path, hash, size), read completely or not: the earlier states a grown file continues
    /// (``FileContinuation``).
    func fileRegistrations() throws -> [FileRegistration]

    /// Called once before the first write with the files about to be read (path and size).
    /// - Returns: true when the engine treats this as a bulk load (and ``finishIngest()`` has work to do).
    func beginIngest(files: [(path: String, byteCount: Int64)]) throws -> Bool

    /// Writes several batches in one transaction, exactly as if they had been appended into one.
    func write(_ batches: [DocumentBatch]) throws

    /// Called once after the last write: builds what a bulk load deferred.
    func finishIngest() throws
}

extension DocumentWriter {
    /// Content hashes of every file already read completely: ingest skips these.
    public func completedFileHashes() throws -> Set<String> {
        try fileRegistrations().completedHashes
    }

    /// Writes one batch in one transaction.
    public func write(_ batch: DocumentBatch) throws { try write([batch]) }
}
