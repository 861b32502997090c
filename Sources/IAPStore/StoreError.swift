/// Failures of the store as a whole (not of one document: those are quarantined).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The file was migrated by a newer iaplens.
    case newerSchema(path: String)
    /// The store was created for another app.
    case otherApp(path: String, storeBundleId: String, requestedBundleId: String)
    /// A write failed; the batch was rolled back.
    case writeFailed(reason: String)

    /// A sentence the user can act on.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "Cannot open the store \(path): \(reason). Check the --database path and its folder's permissions."
        case .newerSchema(let path):
            return "The store \(path) was written by a newer iaplens. Upgrade iaplens, or use another --database."
        case .otherApp(let path, let storeBundleId, let requestedBundleId):
            return "The store \(path) holds data of \(storeBundleId), not \(requestedBundleId). "
                + "Use one --database per app (or pass --bundle-id \(storeBundleId))."
        case .writeFailed(let reason):
            return "Writing to the store failed and the batch was rolled back: \(reason). Rerun to continue where it stopped."
        }
    }
}
