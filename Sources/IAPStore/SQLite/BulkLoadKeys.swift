import Foundation
import GRDB

/// The unique keys written while a bulk load has dropped their indexes, remembered well enough to name the few
/// keys that may have been written twice, so that building each unique index again only has to look at those.
///
/// Without this list, a load that holds a repeated key (a notification-history page repeats notifications the
/// archive already holds) only learns so at the end, when building the unique index fails; the deduplication
/// then has to group every key of the table. At 1M documents with 7,600 repeats that cost 2.1 s more than a
/// load without repeats. A key counts as a suspect when the filter has maybe seen it; false suspects
/// cost nothing but a look.
///
/// The store's existing keys are added first, so a repeat of an earlier run's row is a suspect too. Past
/// `maximumSuspects` (a load far larger than the filter was sized for) the list is given up, and the index build
/// falls back to grouping every key, as it would without the list. Used by the writer thread, then by the thread
/// that builds the indexes after the writer has finished; the lock makes that hand-over safe.
final class BulkLoadKeys: @unchecked Sendable {
    /// Keys that may be held by more than one row, by unique index name, each key as its columns' values; an
    /// index whose list was given up has no entry.
    struct Suspects: Sendable {
        var keys: [String: [[String]]]
    }

    private static let notificationKey = "notifications_by_id"
    private static let renewalKey = "renewal_infos_by_key"
    private static let emptyList = Suspects(keys: [notificationKey: [], renewalKey: []])

    static let maximumSuspects = 100_000

    private let lock = NSLock()
    private var isTracking = false
    private var notificationFilter = KeyFilter()
    private var renewalFilter = KeyFilter()
    private var suspects = emptyList

    /// Starts remembering keys, with those already in the store.
    func start(existingKeysIn db: Database) throws {
        lock.lock()
        defer { lock.unlock() }
        isTracking = true
        notificationFilter = KeyFilter()
        renewalFilter = KeyFilter()
        suspects = Self.emptyList
        let notifications = try Row.fetchCursor(db, sql: "SELECT lineage_id, notification_id FROM notifications")
        while let row = try notifications.next() { noteNotificationLocked(row[0], row[1]) }
        let renewals = try Row.fetchCursor(db, sql: "SELECT document_id, original_transaction_id FROM renewal_infos")
        while let row = try renewals.next() { noteRenewalLocked(row[0], row[1]) }
    }

    /// Called with every write while tracking: notes its notification and renewal-info keys.
    func note(_ batches: [DocumentBatch]) {
        lock.lock()
        defer { lock.unlock() }
        guard isTracking else { return }
        // By index: a `for … in` would copy every batch and row (see ``SQLiteDocumentWriter``).
        for batchIndex in batches.indices {
            let notifications = batches[batchIndex].notifications
            for index in notifications.indices {
                noteNotificationLocked(notifications[index].lineageId, notifications[index].notificationId)
            }
            let renewals = batches[batchIndex].renewalInfos
            for index in renewals.indices {
                noteRenewalLocked(renewals[index].documentId, renewals[index].originalTransactionId)
            }
        }
    }

    /// Ends tracking (the indexes are built).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        isTracking = false
        notificationFilter = KeyFilter(bitCountLog2: 6)
        renewalFilter = KeyFilter(bitCountLog2: 6)
        suspects = Self.emptyList
    }

    /// The suspects so far, or nil when no load was tracked (a run killed during a bulk load leaves only the
    /// store, so the next command's index build has no list).
    func currentSuspects() -> Suspects? {
        lock.lock()
        defer { lock.unlock() }
        return isTracking ? suspects : nil
    }

    private func noteNotificationLocked(_ lineageId: String, _ id: String) {
        if notificationFilter.insert(lineageId, id) { addSuspect([lineageId, id], to: Self.notificationKey) }
    }

    private func noteRenewalLocked(_ documentId: String, _ originalTransactionId: String) {
        if renewalFilter.insert(documentId, originalTransactionId) {
            addSuspect([documentId, originalTransactionId], to: Self.renewalKey)
        }
    }

    private func addSuspect(_ key: [String], to index: String) {
        guard let count = suspects.keys[index]?.count else { return }
        if count < Self.maximumSuspects {
            suspects.keys[index, default: []].append(key)
        } else {
            suspects.keys[index] = nil
        }
    }
}
