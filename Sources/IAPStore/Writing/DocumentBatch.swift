/// Everything one batch of documents adds to the store; written in one SQLite transaction so a run
/// killed at any point leaves either all of it or none of it.
public struct DocumentBatch: Sendable {
    /// Files whose first document is in this batch: registered (state `reading`) before their rows.
    public var startedFiles: [StartedFile] = []
    public var documents: [DocumentRow] = []
    public var quarantine: [QuarantineRow] = []
    public var notifications: [NotificationRow] = []
    public var transactionVersions: [TransactionVersionRow] = []
    public var renewalInfos: [RenewalInfoRow] = []
    public var orderLookups: [OrderLookupRow] = []
    /// Files whose last document is in this batch: marked complete in the same transaction.
    public var completedFiles: [CompletedFile] = []
    /// Files that changed while they were read: their rows are removed, so the next run reads them afresh.
    public var forgottenFiles: [String] = []

    /// An empty batch.
    public init() {}

    /// How many store rows the batch writes (the file markers aside): what bounds a write's memory.
    public var rowCount: Int {
        documents.count + quarantine.count + notifications.count + transactionVersions.count + renewalInfos.count
            + orderLookups.count
    }

    /// Appends another batch's rows.
    public mutating func append(contentsOf other: DocumentBatch) {
        startedFiles += other.startedFiles
        documents += other.documents
        quarantine += other.quarantine
        notifications += other.notifications
        transactionVersions += other.transactionVersions
        renewalInfos += other.renewalInfos
        orderLookups += other.orderLookups
        completedFiles += other.completedFiles
        forgottenFiles += other.forgottenFiles
    }
}

/// A file about to be read.
public struct StartedFile: Sendable, Equatable {
    public var fileSHA256: String
    public var path: String
    public var byteCount: Int64
    public var runId: Int64
    /// The content hash of an earlier, shorter state of this file (same path, its bytes a prefix of these): its
    /// rows become this file's, so lines read then are recognised now and nothing is counted twice.
    public var continues: String?

    /// Creates a record of a file being read.
    public init(fileSHA256: String, path: String, byteCount: Int64, runId: Int64, continues: String? = nil) {
        self.continues = continues
        self.fileSHA256 = fileSHA256
        self.path = path
        self.byteCount = byteCount
        self.runId = runId
    }
}

/// A file fully read: how many documents it held.
public struct CompletedFile: Sendable, Equatable {
    public var fileSHA256: String
    public var documents: Int
    public var runId: Int64

    /// Creates a record of a completed file.
    public init(fileSHA256: String, documents: Int, runId: Int64) {
        self.fileSHA256 = fileSHA256
        self.documents = documents
        self.runId = runId
    }
}
