import Foundation

/// One run at a time per PostgreSQL store: a session advisory lock keyed by the store's schema, on a connection of
/// its own that lives as long as the lock. The server releases it when that connection ends, including when the
/// process holding it is killed, so a crashed run never leaves a stale lock. The holder is named by the
/// connection's `application_name`, which the refusal message quotes.
final class PostgresRunLock: StoreRunLock, @unchecked Sendable {
    // @unchecked: the connection is used in init only, then held until deinit.
    private let connection: PostgresConnection

    init(url: PostgresURL, command: String) throws {
        // A server that cannot be reached is reported as such (`cannotOpen`), not as a lock problem.
        connection = try PostgresStore.connect(url)
        let key = "iaplens run " + url.schema
        let taken = try connection.value("SELECT pg_try_advisory_lock(hashtextextended(?, 0))", [.text(key)]).bool ?? false
        guard taken else {
            let holder = try? connection.text(
                """
                SELECT activity.application_name FROM pg_locks AS locks
                INNER JOIN pg_stat_activity AS activity ON activity.pid = locks.pid
                WHERE locks.locktype = 'advisory' AND locks.granted AND locks.objsubid = 1
                    AND locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND ((locks.classid::bigint << 32) | locks.objid::bigint) = hashtextextended(?, 0)
                LIMIT 1
                """, [.text(key)])
            throw StoreError.busy(holder: (holder?.isEmpty == false ? holder : nil) ?? "another iaplens process")
        }
        let note = "pid \(getpid()) (iaplens \(command), started \(ISO8601DateFormatter().string(from: Date())))"
        // application_name is limited to 63 bytes and to printable ASCII.
        let printable = String(note.unicodeScalars.filter { $0.isASCII && $0.value >= 32 }.prefix(63).map(Character.init))
        try connection.execute("SELECT set_config('application_name', ?, false)", [.text(printable)])
    }
}
