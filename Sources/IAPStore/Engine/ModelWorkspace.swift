/// Connections that build independent analysis models at the same time, one per worker, for an engine whose
/// single connection runs on one core (SQLite: `analyze` at 1M notifications spent 24 s on one of two cores).
///
/// Worker `i` creates the tables it builds in its own schema, ``schema(ofWorker:)``, which every worker reads;
/// nothing in the store changes until ``publish(_:)``, which runs in one transaction on the store's own connection
/// with those schemas readable, so a run killed while the workers build leaves the store as it was
/// (Documentation/Architecture.md "Analyze on several cores").
public protocol ModelWorkspace: AnyObject, Sendable {
    /// How many workers there are (at least 2).
    var workerCount: Int { get }

    /// The schema worker `index` creates its tables in, readable from every worker and from ``publish(_:)``.
    func schema(ofWorker index: Int) -> String

    /// Runs `body` on worker `index`'s connection, each statement in its own transaction: a table a worker
    /// finishes is readable by the others from then on. Workers may run at the same time on different threads;
    /// one worker's calls must not overlap.
    func withWorker<T>(_ index: Int, _ body: (any StoreConnection) throws -> T) throws -> T

    /// Runs `body` in one transaction on the store's connection, with the engine's settings for building models
    /// and every worker's schema readable: where the built models are copied into the store.
    func publish<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// Closes the workers' connections and removes what they built. Safe to call more than once.
    func close()
}
