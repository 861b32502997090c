import GRDB
import IAPStore
import Testing

/// A full or read-only store is recognised behind the store boundary, for both engines, in one place.
@Suite struct StorageConditionTests {
    @Test func engineErrorsAreClassifiedOnce() {
        #expect(StorageCondition(DatabaseError(resultCode: .SQLITE_FULL)) == .full)
        #expect(StorageCondition(DatabaseError(resultCode: .SQLITE_READONLY)) == .readOnly)
        #expect(
            StorageCondition(DatabaseError(resultCode: .SQLITE_CANTOPEN)) == .readOnly,
            "a journal it cannot create mid-run")
        #expect(
            StorageCondition(DatabaseError(resultCode: .SQLITE_IOERR)) == nil, "an I/O error is said as SQLite says it")
        #expect(StorageCondition(StoreError.storageFull(path: "postgres://h/db", reason: "53100")) == .full)
        #expect(StorageCondition(StoreError.storageReadOnly(path: "postgres://h/db", reason: "25006")) == .readOnly)
        #expect(StorageCondition(StoreError.queryFailed(reason: "syntax")) == nil)
    }

    @Test func aStoreInAMissingFolderCannotBeOpenedRatherThanReadOnly() {
        #expect {
            _ = try SQLiteStore(path: "/nonexistent-iaplens-folder/store.sqlite")
        } throws: { error in
            if case StoreError.cannotOpen? = error as? StoreError { return true }
            return false
        }
    }
}
