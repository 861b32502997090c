import Foundation

/// One run at a time per PostgreSQL store: a session advisory lock keyed by the store's schema, on a connection of
/// its own that lives as long as the lock. The server releases it when that connection ends, including when the
/// process holding it is killed, so a crashed run never leaves a stale lock. The holder is named by the
/// connection's `application_name`, which the refusal message quotes.
///
/// The server can also end that connection while the run goes on (`idle_session_timeout`, a reaper, a NAT
/// timeout, a transaction-mode pooler), and with it the lock. So the lock connection is kept busy (a `SELECT 1`
/// every 20 s), and every transaction of the store checks, just before it commits, that the lock is still held
/// (``check()``): a run that lost it stops with ``StoreError/lockLost(path:reason:)`` instead of writing beside
/// another run.
final class PostgresRunLock: StoreRunLock, @unchecked Sendable {
    // @unchecked: the connection is only used under `guardLock` (the keep-alive timer runs on another thread).
    private let connection: PostgresConnection
    private let key: String
    private let registryKey: String
    private let displayName: String
    private let guardLock = NSLock()
    private var keepAlive: (any DispatchSourceTimer)?

    init(url: PostgresURL, command: String) throws {
        // A server that cannot be reached is reported as such (`cannotOpen`), not as a lock problem.
        connection = try PostgresStore.connect(url)
        key = Self.key(url)
        registryKey = Self.registryKey(url)
        displayName = url.redacted
        let key = self.key
        let taken =
            try connection.value("SELECT pg_try_advisory_lock(hashtextextended(?, 0))", [.text(key)]).bool ?? false
        guard taken else {
            let holder = try? connection.text(
                """
                SELECT activity.application_name FROM pg_locks AS locks
                INNER JOIN pg_stat_activity AS activity ON activity.pid = locks.pid
                WHERE \(Self.grantedLockCondition)
                LIMIT 1
                """, [.text(key)])
            throw StoreError.busy(holder: (holder?.isEmpty == false ? holder : nil) ?? "another iaplens process")
        }
        let note = "pid \(getpid()) (iaplens \(command), started \(ISO8601DateFormatter().string(from: Date())))"
        // application_name is limited to 63 bytes and to printable ASCII.
        let printable = String(
            note.unicodeScalars.filter { $0.isASCII && $0.value >= 32 }.prefix(63).map(Character.init))
        try connection.execute("SELECT set_config('application_name', ?, false)", [.text(printable)])
        Self.registry.withLock { $0[registryKey] = Weak(self) }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "iaplens.postgres-lock-keepalive"))
        timer.schedule(deadline: .now() + 20, repeating: 20)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.guardLock.withLock { _ = try? self.connection.value("SELECT 1") }
        }
        timer.resume()
        keepAlive = timer
    }

    /// True when a session holds the run lock of the store at `url`, told from `pg_locks` without taking it. The
    /// server drops a session's locks when its process dies, so a run killed mid-way holds none.
    static func isHeld(url: PostgresURL) throws -> Bool {
        try PostgresStore.connect(url).value(
            "SELECT count(*) > 0 FROM pg_locks AS locks WHERE \(grantedLockCondition)", [.text(key(url))]
        ).bool ?? false
    }

    /// The advisory lock's key for the store at `url`: one per schema.
    private static func key(_ url: PostgresURL) -> String { "iaplens run " + url.schema }

    /// The rows of `pg_locks AS locks` that are the granted run lock whose key is the statement's `?`.
    private static let grantedLockCondition = """
        locks.locktype = 'advisory' AND locks.granted AND locks.objsubid = 1
            AND locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND ((locks.classid::bigint << 32) | locks.objid::bigint) = hashtextextended(?, 0)
        """

    deinit {
        keepAlive?.cancel()
        // Released here, not left to the server: closing the connection frees the lock only when the server's session
        // ends, a moment later, and a run started in that moment (`ingest` then `analyze` in a script) found the
        // store still in use.
        let lockKey = key
        guardLock.withLock {
            _ = try? connection.value("SELECT pg_advisory_unlock(hashtextextended(?, 0))", [.text(lockKey)])
        }
        let registryKey = registryKey
        Self.registry.withLock { registry in
            if registry[registryKey]?.lock == nil || registry[registryKey]?.lock === self {
                registry[registryKey] = nil
            }
        }
    }

    /// Throws ``StoreError/lockLost(path:reason:)`` unless this session still holds the lock.
    func check() throws {
        try guardLock.withLock {
            let held: Bool
            do {
                held =
                    try connection.value(
                        """
                        SELECT count(*) FROM pg_locks
                        WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND objsubid = 1
                            AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(?, 0)
                        """, [.text(key)]
                    ).integer ?? 0 > 0
            } catch {
                throw StoreError.lockLost(path: displayName, reason: "its connection ended (\(error))")
            }
            if !held { throw StoreError.lockLost(path: displayName, reason: "the server no longer holds it") }
        }
    }

    /// The lock this process holds on the store at `url`, if any.
    static func held(for url: PostgresURL) -> PostgresRunLock? {
        registry.withLock { $0[registryKey(url)]?.lock }
    }

    private static func registryKey(_ url: PostgresURL) -> String { url.connectionString + "\u{0}" + url.schema }

    private final class Weak: @unchecked Sendable {
        weak var lock: PostgresRunLock?
        init(_ lock: PostgresRunLock) { self.lock = lock }
    }

    /// The locks this process holds, by store: read by every commit, so a lock of their own.
    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        // @unchecked: `locks` is only touched under `lock`.
        private let lock = NSLock()
        private var locks: [String: Weak] = [:]
        func withLock<T>(_ body: (inout [String: Weak]) -> T) -> T { lock.withLock { body(&locks) } }
    }
}
