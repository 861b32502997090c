import IAPStore

/// What one ingest did, for the command line and the run log.
public struct IngestSummary: Sendable, Equatable {
    /// Input files found under the given paths.
    public var filesFound: Int
    /// Files under the given folders that were not inputs (other extensions).
    public var filesIgnored: [String]
    /// Entries under the given folders that are not regular files (named pipes, sockets, devices, dangling links):
    /// never opened.
    public var entriesNotFiles: [String]
    /// iaplens's own reports folder where it lies under an input folder: left out, not read.
    public var foldersLeftOut: [String] = []
    /// Files read in this run.
    public var filesRead = 0
    /// Files skipped because the same content was read before.
    public var filesAlreadyRead = 0
    /// Files that could not be opened, with the reason.
    public var unreadableFiles: [String] = []
    /// Documents read in this run.
    public var documentsRead = 0
    /// Of which accepted.
    public var accepted = 0
    /// Of which of another environment.
    public var otherEnvironment = 0
    /// Of which TEST notifications.
    public var testNotifications = 0
    /// Of which quarantined, by reason code.
    public var quarantinedByReason: [String: Int] = [:]
    /// Apple's financial reports found among the inputs (loaded now or read before).
    public var appleReportsFound = 0
    /// Of which loaded in this run.
    public var appleReportsLoaded = 0
    /// Rows of those reports loaded.
    public var appleReportRows = 0
    /// Apple's payment summaries found among the inputs (loaded now, read before, or refused).
    public var applePaymentSummariesFound = 0
    /// Of which loaded in this run.
    public var applePaymentSummariesLoaded = 0
    /// Report rows quarantined, and reports refused whole, by reason code (not documents: kept apart from the
    /// documents' quarantine share).
    public var appleReportQuarantine: [String: Int] = [:]
    /// One sentence per report refused whole in this run.
    public var appleReportRefusals: [String] = []
    /// One sentence per Apple file that repeats a report or summary loaded from another file (also counted in
    /// `filesAlreadyRead`).
    public var appleFileCopies: [String] = []

    /// Creates an empty summary.
    public init(filesFound: Int, filesIgnored: [String], entriesNotFiles: [String] = []) {
        self.filesFound = filesFound
        self.filesIgnored = filesIgnored
        self.entriesNotFiles = entriesNotFiles
    }

    /// Signatures checked (one P-256 verify each); 0 under `--no-verify`.
    public var signatureChecks = 0

    /// Total quarantined.
    public var quarantined: Int { quarantinedByReason.values.reduce(0, +) }

    mutating func count(_ batch: DocumentBatch) {
        documentsRead += batch.documents.count
        for document in batch.documents {
            switch document.outcome {
            case .accepted: accepted += 1
            case .otherEnvironment: otherEnvironment += 1
            case .testNotification: testNotifications += 1
            case .quarantined: break
            }
        }
        for row in batch.quarantine {
            quarantinedByReason[row.reason, default: 0] += 1
        }
    }
}
