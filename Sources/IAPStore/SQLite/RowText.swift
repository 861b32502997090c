import GRDB
import GRDBSQLite

/// The bytes of the text values bound to one statement's current row, held here so that SQLite reads them in place.
///
/// Why: bound with `SQLITE_TRANSIENT`, every text value costs SQLite an allocation, a copy and, at the next bind, a
/// free: about sixty per document, a third of the writer's instructions once the CHECK lists were gone
/// (Documentation/Performance.md, "Ingest's text bound in place"). Copied into this buffer and bound with `SQLITE_STATIC`, a value is one
/// copy into memory that stays put until the row has been stepped. Swift's own string storage is not used for that:
/// its address is only guaranteed inside `withContiguousStorageIfAvailable`, and a small string has none at all.
///
/// The buffer never moves while a row is being bound: a value that does not fit is bound with a copy instead
/// (``store(_:)`` returns nil), and the buffer grows to fit such a row only when the next one starts (``reset()``).
/// When the buffer is released it clears the statement's bindings, so that no parameter is left pointing at freed memory.
final class RowText {
    private let handle: SQLiteStatement
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0
    /// The bytes the current row wanted in all, when more than the capacity.
    private var wanted = 0

    init(handle: SQLiteStatement, capacity: Int = 16_384) {
        self.handle = handle
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        sqlite3_clear_bindings(handle)
        base.deallocate()
    }

    /// A stable copy of `bytes` for the current row, or nil when the buffer is full.
    func store(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard let source = bytes.baseAddress else { return nil }
        let end = used + bytes.count
        guard end <= capacity else {
            wanted = max(wanted, end)
            return nil
        }
        let target = base + used
        target.copyMemory(from: source, byteCount: bytes.count)
        used = end
        return UnsafeRawPointer(target)
    }

    /// Called once the row has been stepped and the statement reset: the next row starts at the beginning.
    func reset() {
        if wanted > capacity {
            // Every parameter is bound again before the next step, so no binding reads the old buffer after this.
            sqlite3_clear_bindings(handle)
            base.deallocate()
            capacity = wanted.nextPowerOf2
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
        used = 0
        wanted = 0
    }
}

extension Int {
    fileprivate var nextPowerOf2: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}
