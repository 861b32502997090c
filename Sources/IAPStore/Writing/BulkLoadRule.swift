/// When ingest treats a load as a bulk load (both engines then drop their secondary indexes and build them again,
/// sorted, at the end): the files not yet in the store, judged by path and size, hold at least as many bytes as the
/// store itself. A first load or a backfill is one; a daily delta into a large store is not.
enum BulkLoadRule {
    /// - Parameters:
    ///   - files: the files about to be read.
    ///   - completed: path and size of every file the store has read completely.
    ///   - storeBytes: the store's size on disk.
    static func isBulk(
        files: [(path: String, byteCount: Int64)], completed: [(path: String, byteCount: Int64)], storeBytes: Int64
    ) -> Bool {
        let known = Set(completed.map { "\($0.path)\u{0}\($0.byteCount)" })
        let newBytes = files.filter { !known.contains("\($0.path)\u{0}\($0.byteCount)") }.reduce(Int64(0)) {
            $0 + $1.byteCount
        }
        return newBytes > 0 && newBytes >= storeBytes
    }

    /// The query for `completed`, the same on both engines.
    static let completedFilesSQL = "SELECT path, byte_count FROM source_files WHERE state = 'complete'"
}
