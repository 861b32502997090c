import Foundation
import IAPFormats
import IAPStore

/// What is in the store (`iaplens status`): files, documents by kind/outcome/environment, notification
/// types, quarantine by reason, months covered, and the last run of each stage.
public struct StoreStatus: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        public let label: String
        public let count: Int
    }
    public struct LastRun: Sendable, Equatable {
        public let command: String
        public let startedAt: String
        public let finishedAt: String?
        public internal(set) var outcome: String
        public let isVerified: Bool
        public let documentsRead: Int
        public let documentsQuarantined: Int
        /// Why a failed run failed, as it said it (the run log keeps the sentence); nil when it said nothing.
        public let message: String?

        /// The run log's outcome of a run that has not finished (yet, or ever).
        public static let runningOutcome = RunLog.runningOutcome
        /// What `status` says of a run whose row is `running` while no process holds the store: it was killed or
        /// crashed before it finished.
        public static let stoppedOutcome = "stopped"

        public var isRunning: Bool { outcome == Self.runningOutcome }

        /// This run, said as stopped before it finished.
        var stopped: LastRun {
            var run = self
            run.outcome = Self.stoppedOutcome
            return run
        }
    }
    public struct QuarantineSample: Sendable, Equatable {
        public let path: String
        public let line: Int
        public let entry: Int
        public let reason: String
        public let message: String
        /// The start of the document as it was read (what `iaplens reasons` tells to inspect).
        public let excerpt: String
    }

    /// One Apple financial report loaded into the store.
    public struct AppleReport: Sendable, Equatable {
        public let firstDay: String
        public let lastDay: String
        public let rows: Int
        public let rejectedRows: Int
        public let path: String
    }

    /// One Apple payment summary loaded into the store.
    public struct ApplePaymentSummary: Sendable, Equatable {
        /// Apple's fiscal month, `YYYY-MM`, named by the summary's title.
        public let fiscalMonth: String
        /// Downloaded before Apple paid the month: no rate and no proceeds yet.
        public let isPending: Bool
        public let rows: Int
        public let path: String
    }

    public var bundleId: String?
    /// Apple's financial reports loaded, by period.
    public var appleReports: [AppleReport] = []
    /// The calendar months with a day that a loaded Apple report covers.
    public var appleReportMonths: [String] = []
    /// Apple's payment summaries loaded, by fiscal month.
    public var applePaymentSummaries: [ApplePaymentSummary] = []
    public var filesComplete = 0
    public var filesIncomplete = 0
    public var documentsByKind: [Count] = []
    public var documentsByOutcome: [Count] = []
    public var documentsByEnvironment: [Count] = []
    public var notificationsByType: [Count] = []
    public var quarantineByReason: [Count] = []
    public var duplicates = 0
    public var unverifiedDocuments = 0
    public var transactions = 0
    public var months: [String] = []
    public var lastRuns: [LastRun] = []
    /// Notification history: fetched from Apple's horizon up to this instant (`fetch`'s done-until mark), and the
    /// window a killed fetch left unfinished (the next fetch finishes it first).
    public var historyFetchedUntil: String?
    public var historyUnfinishedWindow: String?
    /// Every span of notification history fetched completely (`from…to`, UTC), and what lies between Apple's
    /// horizon (less a day) and the last of them unfetched: what `fetch --since … --until …` would fill in.
    public var historyFetched: [String] = []
    public var historyGaps: [String] = []
    /// `CONSUMPTION_REQUEST`s accepted without a verified signature (`--no-verify`): `consumption` never answers them.
    public var consumptionRequestsUnverified = 0
    /// Customers Apple answered it does not know (refund history 404, 4040010): recorded, not asked again.
    public var customersUnknownToApple = 0
    /// Consumption answers by result (`answered`, `refused`, `in_doubt`, …): `in_doubt` ones need a person.
    public var consumptionAnswers: [Count] = []
    /// Answers Apple refused, with what it said, newest first (at most 20).
    public var consumptionRefusals: [ConsumptionRefusal] = []

    public struct ConsumptionRefusal: Sendable, Equatable {
        public let transactionId: String
        public let httpStatus: Int64?
        public let errorCode: Int64?
        public let message: String
    }
    public var quarantineSamples: [QuarantineSample] = []

    /// Reads the status of a store. `quarantineLimit` rows of quarantine detail are included.
    public static func read(from store: any StoreEngine, quarantineLimit: Int = 0, reason: String? = nil) throws
        -> StoreStatus
    {
        try store.read { db in
            let binary = db.dialect.binaryCollation
            var status = StoreStatus()
            status.bundleId = try db.text("SELECT value FROM store_settings WHERE key = 'bundle_id'")
            // Files, duplicates, unverified and quarantine counts: the data-quality section's own definitions.
            let figures = try DocumentFigures.read(db)
            status.filesComplete = figures.filesRead
            status.filesIncomplete = figures.filesIncomplete
            status.duplicates = figures.duplicates
            status.unverifiedDocuments = figures.unverified
            status.quarantineByReason = figures.quarantinedByReason.map { Count(label: $0.label, count: $0.count) }
            status.documentsByKind = try counts(
                db, "SELECT kind, count(*) FROM documents GROUP BY 1 ORDER BY kind COLLATE \(binary)")
            status.documentsByOutcome = try counts(
                db, "SELECT outcome, count(*) FROM documents GROUP BY 1 ORDER BY outcome COLLATE \(binary)")
            status.documentsByEnvironment = try counts(
                db,
                """
                SELECT coalesce(environment, '(unknown)'), count(*) FROM documents GROUP BY 1
                ORDER BY coalesce(environment, '(unknown)') COLLATE \(binary)
                """)
            status.notificationsByType = try counts(
                db,
                """
                SELECT format || ' ' || notification_type, count(*) FROM notifications GROUP BY 1
                ORDER BY (format || ' ' || notification_type) COLLATE \(binary)
                """)
            status.transactions = Int(try db.integer("SELECT count(*) FROM transactions") ?? 0)
            // The months the reports hold (Documentation/Reports.md "Months written"), as the last analysis decided;
            // before any analysis, the months of accepted notifications (lookups open no month).
            status.months =
                try db.tableExists("report_months")
                ? db.rows("SELECT month FROM report_months WHERE is_written ORDER BY month COLLATE \(binary)")
                    .compactMap { $0[0].text }
                : db.rows(
                    """
                    SELECT DISTINCT \(db.dialect.monthOfMilliseconds("document_time")) FROM notifications
                    WHERE notification_type <> 'TEST' ORDER BY 1
                    """
                ).compactMap { $0[0].text }
            status.appleReports = try db.rows(
                """
                SELECT period_start, period_end, row_count, rejected_rows, path FROM apple_reports
                ORDER BY period_start COLLATE \(binary)
                """
            ).map { row in
                AppleReport(
                    firstDay: row[0].text ?? "", lastDay: row[1].text ?? "", rows: Int(row[2].integer ?? 0),
                    rejectedRows: Int(row[3].integer ?? 0), path: row[4].text ?? "")
            }
            status.appleReportMonths = try db.rows(
                "SELECT DISTINCT substr(day, 1, 7) AS month FROM apple_report_days ORDER BY 1"
            ).compactMap { $0[0].text }
            status.applePaymentSummaries = try db.rows(
                """
                SELECT fiscal_month, is_pending, row_count, path FROM apple_payment_summaries
                ORDER BY fiscal_month COLLATE \(binary)
                """
            ).map { row in
                ApplePaymentSummary(
                    fiscalMonth: row[0].text ?? "", isPending: row[1].integer == 1,
                    rows: Int(row[2].integer ?? 0), path: row[3].text ?? "")
            }
            status.lastRuns = try db.rows(
                """
                SELECT command, started_at, finished_at, outcome, is_verified, documents_read, documents_quarantined, message
                FROM runs WHERE run_id IN (SELECT max(run_id) FROM runs GROUP BY command) ORDER BY command COLLATE \(binary)
                """
            ).map { row in
                LastRun(
                    command: row[0].text ?? "", startedAt: row[1].text ?? "", finishedAt: row[2].text,
                    outcome: row[3].text ?? "", isVerified: row[4].bool ?? false,
                    documentsRead: Int(row[5].integer ?? 0), documentsQuarantined: Int(row[6].integer ?? 0),
                    message: row[7].text.flatMap { $0.isEmpty ? nil : $0 })
            }
            let cursors = Dictionary(
                try db.rows("SELECT name, value FROM fetch_cursors WHERE name LIKE 'notification_history.%'")
                    .map { ($0[0].text ?? "", $0[1].text ?? "") }, uniquingKeysWith: { first, _ in first })
            status.historyFetchedUntil = cursors["notification_history.done_until"]
                .flatMap { Int64($0) }.map { ISO8601Millis.format($0) }
            status.historyUnfinishedWindow = cursors["notification_history.window"]
            if let coverage = cursors[HistoryCoverage.cursorName].flatMap(HistoryCoverage.init(text:)) {
                // A day inside Apple's 180 days: a fetch starts a minute after the horizon it saw, and the history
                // at the very edge may be gone before anybody could ask for it.
                let horizon =
                    Int64(Date().timeIntervalSince1970 * 1000) - HistoryCoverage.appleRetentionMs
                    + CivilCalendar.millisecondsPerDay
                status.historyFetched = coverage.spans.map(Self.format)
                status.historyGaps = coverage.gaps(after: horizon).map(Self.format)
            }
            status.consumptionRequestsUnverified = Int(
                try db.value(
                    """
                    SELECT count(*) FROM notifications WHERE notification_type = 'CONSUMPTION_REQUEST' AND is_verified = 0
                    """
                ).integer ?? 0)
            status.customersUnknownToApple = Int(
                try db.value("SELECT count(*) FROM fetch_cursors WHERE name LIKE 'refund_history_unknown.%'").integer
                    ?? 0)
            status.consumptionRefusals = try db.rows(
                """
                SELECT transaction_id, http_status, apple_error_code, coalesce(apple_error_message, '') FROM consumption_answers
                WHERE result = 'refused' ORDER BY sent_at DESC, notification_id LIMIT 20
                """
            ).map {
                ConsumptionRefusal(
                    transactionId: $0[0].text ?? "", httpStatus: $0[1].integer, errorCode: $0[2].integer,
                    message: $0[3].text ?? "")
            }
            status.consumptionAnswers = try counts(
                db,
                """
                SELECT CASE WHEN result = '\(ConsumptionAnswerResult.sending.rawValue)' THEN '\(ConsumptionAnswerResult.inDoubt.rawValue)'
                    ELSE result END AS answer, count(*) FROM consumption_answers
                GROUP BY 1 ORDER BY answer
                """)
            if quarantineLimit > 0 {
                status.quarantineSamples = try db.rows(
                    """
                    SELECT path, line, entry, reason, message, excerpt FROM quarantine
                    WHERE CAST(? AS TEXT) IS NULL OR reason = ?
                    ORDER BY reason COLLATE \(binary), path COLLATE \(binary), line, entry LIMIT ?
                    """, [SQLValue(reason), SQLValue(reason), SQLValue(quarantineLimit)]
                ).map { row in
                    QuarantineSample(
                        path: row[0].text ?? "", line: Int(row[1].integer ?? 0), entry: Int(row[2].integer ?? 0),
                        reason: row[3].text ?? "", message: row[4].text ?? "", excerpt: row[5].text ?? "")
                }
            }
            return status
        }
    }

    private static func format(_ span: Range<Int64>) -> String {
        ISO8601Millis.format(span.lowerBound) + "…" + ISO8601Millis.format(span.upperBound)
    }

    private static func counts(_ db: any StoreConnection, _ sql: String) throws -> [Count] {
        try db.rows(sql).map { Count(label: $0[0].text ?? "", count: Int($0[1].integer ?? 0)) }
    }
}
