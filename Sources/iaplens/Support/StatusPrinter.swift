import IAPFormats
import IAPPipeline
import IAPStore

/// Plain-text rendering of `StoreStatus`.
enum StatusPrinter {
    static func render(_ s: StoreStatus, databasePath: String) -> String {
        var lines: [String] = []
        lines.append("store: \(databasePath)" + (s.bundleId.map { " (\($0))" } ?? ""))
        lines.append(
            "files: \(s.filesComplete) read"
                + (s.filesIncomplete > 0 ? ", \(s.filesIncomplete) incomplete (the next run finishes them)" : ""))
        lines.append("transactions: \(s.transactions)")
        lines.append("duplicates (copies of accepted documents): \(s.duplicates)")
        if s.unverifiedDocuments > 0 {
            lines.append(
                "WARNING: \(s.unverifiedDocuments) accepted document(s) ingested with --no-verify (signatures not checked)"
            )
        }
        section("documents by outcome", s.documentsByOutcome, into: &lines)
        section("documents by kind", s.documentsByKind, into: &lines)
        section("documents by environment", s.documentsByEnvironment, into: &lines)
        section("notifications by type", s.notificationsByType, into: &lines)
        section("quarantine by reason", s.quarantineByReason, into: &lines)
        lines.append(
            "months reported: "
                + (s.months.isEmpty ? "none" : "\(s.months.first ?? "") … \(s.months.last ?? "") (\(s.months.count))"))
        lines.append(
            "Apple financial reports: "
                + (s.appleReports.isEmpty
                    ? "none loaded"
                    : "\(s.appleReports.count) loaded, covering "
                        + "\(s.appleReportMonths.first ?? "") … \(s.appleReportMonths.last ?? "") (\(s.appleReportMonths.count) month(s) with a covered day)")
        )
        for report in s.appleReports.suffix(listedAppleFiles) {
            lines.append(
                "  \(report.firstDay) … \(report.lastDay): \(report.rows) row(s)"
                    + (report.rejectedRows > 0 ? ", \(report.rejectedRows) quarantined" : "") + ", \(report.path)")
        }
        earlier(s.appleReports.count, into: &lines)
        lines.append(
            "Apple payment summaries: "
                + (s.applePaymentSummaries.isEmpty
                    ? "none loaded (a person downloads them from App Store Connect, Payments and Financial Reports)"
                    : "\(s.applePaymentSummaries.count) loaded, fiscal months \(s.applePaymentSummaries.first?.fiscalMonth ?? "") … "
                        + "\(s.applePaymentSummaries.last?.fiscalMonth ?? "")"))
        for summary in s.applePaymentSummaries.suffix(listedAppleFiles) {
            lines.append(
                "  \(summary.fiscalMonth): \(summary.isPending ? "pending (not paid yet)" : "paid"), "
                    + "\(summary.rows) row(s), \(summary.path)")
        }
        earlier(s.applePaymentSummaries.count, into: &lines)
        lines.append(
            "notification history fetched: "
                + (s.historyFetchedUntil.map { "from Apple's 180-day horizon to \($0)" }
                    ?? "none yet (no fetch has covered Apple's 180 days)")
                + (s.historyUnfinishedWindow == nil
                    ? "" : "; a window a stopped fetch left unfinished (the next fetch finishes it first)"))
        if !s.historyFetched.isEmpty {
            lines.append("  windows fetched: " + s.historyFetched.joined(separator: ", "))
            lines.append(
                "  gaps within Apple's 180 days: "
                    + (s.historyGaps.isEmpty
                        ? "none"
                        : s.historyGaps.joined(separator: ", ")
                            + " (fill one with `iaplens fetch --since <start> --until <end>`)"))
        }
        if s.customersUnknownToApple > 0 {
            lines.append(
                "customers Apple does not know (refund history 404, 4040010; not asked again): \(s.customersUnknownToApple)"
            )
        }
        section("consumption answers", s.consumptionAnswers, into: &lines)
        if let doubtful = s.consumptionAnswers.first(where: { $0.label == ConsumptionAnswerResult.inDoubt.rawValue }) {
            lines.append(
                "  \(doubtful.count) consumption request(s) in doubt: sent, no answer recorded; check them in App Store Connect"
            )
        }
        for refusal in s.consumptionRefusals {
            lines.append(
                "  refused by Apple: transaction \(refusal.transactionId), HTTP \(refusal.httpStatus.map(String.init) ?? "?")"
                    + (refusal.errorCode.map { ", errorCode \($0)" } ?? "")
                    + (refusal.message.isEmpty ? "" : ": \(refusal.message)"))
        }
        if s.consumptionRequestsUnverified > 0 {
            lines.append(
                "consumption requests never answered because they were accepted unverified (--no-verify): \(s.consumptionRequestsUnverified)"
            )
        }
        lines.append("last runs:")
        if s.lastRuns.isEmpty { lines.append("  none") }
        for run in s.lastRuns {
            let outcome =
                run.outcome == StoreStatus.LastRun.stoppedOutcome
                ? "stopped before it finished (killed or crashed: what it committed stays, and the next \(run.command) takes up the rest)"
                : run.outcome
            lines.append(
                "  \(run.command): \(outcome), started \(run.startedAt)"
                    + (run.finishedAt.map { ", finished \($0)" } ?? "")
                    + (run.command == "ingest"
                        ? ", \(run.documentsRead) documents, \(run.documentsQuarantined) quarantined" : "")
                    + (run.isVerified ? "" : " [--no-verify]")
                    + (run.message.map { ": \($0)" } ?? ""))
        }
        if !s.quarantineSamples.isEmpty {
            lines.append("quarantined documents:")
            for sample in s.quarantineSamples {
                let place =
                    sample.entry > 0
                    ? "\(sample.path):\(sample.line) entry \(sample.entry)" : "\(sample.path):\(sample.line)"
                lines.append("  [\(sample.reason)] \(place): \(sample.message)")
                if !sample.excerpt.isEmpty { lines.append("      starts: \(sample.excerpt.prefix(200))") }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Apple's files listed one per line, the latest ones: years of monthly reports would bury the rest of the status.
    static let listedAppleFiles = 12

    private static func earlier(_ count: Int, into lines: inout [String]) {
        if count > listedAppleFiles {
            lines.append("  … and \(count - listedAppleFiles) earlier (`iaplens status --json` lists every file)")
        }
    }

    private static func section(_ title: String, _ counts: [StoreStatus.Count], into lines: inout [String]) {
        lines.append("\(title):")
        if counts.isEmpty { lines.append("  none") }
        for count in counts { lines.append("  \(count.label): \(count.count)") }
    }

    /// The status as one JSON object, keys sorted: what monitoring reads. Text from the data is JSON-escaped.
    static func json(_ s: StoreStatus, databasePath: String) -> String {
        func counts(_ list: [StoreStatus.Count]) -> JSONValue {
            .object(JSONObject(list.map { ($0.label, .number(JSONNumber(Int64($0.count)))) }))
        }
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(Int64(value))) }
        var pairs: [(String, JSONValue)] = [
            ("store", .string(databasePath)),
            ("files_complete", number(s.filesComplete)), ("files_incomplete", number(s.filesIncomplete)),
            ("transactions", number(s.transactions)), ("duplicates", number(s.duplicates)),
            ("unverified_documents", number(s.unverifiedDocuments)),
            ("documents_by_outcome", counts(s.documentsByOutcome)), ("documents_by_kind", counts(s.documentsByKind)),
            ("documents_by_environment", counts(s.documentsByEnvironment)),
            ("notifications_by_type", counts(s.notificationsByType)),
            ("quarantine_by_reason", counts(s.quarantineByReason)),
            ("months", .array(s.months.map { .string($0) })),
            (
                "apple_reports",
                .array(
                    s.appleReports.map { report in
                        .object(
                            JSONObject([
                                ("first_day", .string(report.firstDay)), ("last_day", .string(report.lastDay)),
                                ("rows", number(report.rows)),
                                ("rejected_rows", number(report.rejectedRows)), ("path", .string(report.path)),
                            ]))
                    })
            ),
            ("apple_report_months", .array(s.appleReportMonths.map { .string($0) })),
            (
                "apple_payment_summaries",
                .array(
                    s.applePaymentSummaries.map { summary in
                        .object(
                            JSONObject([
                                ("fiscal_month", .string(summary.fiscalMonth)),
                                ("is_pending", .bool(summary.isPending)),
                                ("rows", number(summary.rows)), ("path", .string(summary.path)),
                            ]))
                    })
            ),
            ("history_fetched_until", s.historyFetchedUntil.map { .string($0) } ?? .null),
            ("history_window_unfinished", .bool(s.historyUnfinishedWindow != nil)),
            ("history_windows_fetched", .array(s.historyFetched.map { .string($0) })),
            ("history_gaps", .array(s.historyGaps.map { .string($0) })),
            ("consumption_requests_unverified", number(s.consumptionRequestsUnverified)),
            ("customers_unknown_to_apple", number(s.customersUnknownToApple)),
            ("consumption_answers", counts(s.consumptionAnswers)),
            (
                "consumption_refusals",
                .array(
                    s.consumptionRefusals.map { refusal in
                        .object(
                            JSONObject([
                                ("transaction_id", .string(refusal.transactionId)),
                                ("http_status", refusal.httpStatus.map { number(Int($0)) } ?? .null),
                                ("error_code", refusal.errorCode.map { number(Int($0)) } ?? .null),
                                ("message", .string(refusal.message)),
                            ]))
                    })
            ),
            (
                "last_runs",
                .array(
                    s.lastRuns.map { run in
                        var fields: [(String, JSONValue)] = [
                            ("command", .string(run.command)), ("outcome", .string(run.outcome)),
                            ("started_at", .string(run.startedAt)),
                            ("documents_read", number(run.documentsRead)),
                            ("documents_quarantined", number(run.documentsQuarantined)),
                            ("verified", .bool(run.isVerified)),
                        ]
                        if let finished = run.finishedAt { fields.append(("finished_at", .string(finished))) }
                        if let message = run.message { fields.append(("message", .string(message))) }
                        return .object(JSONObject(fields))
                    })
            ),
            (
                "quarantined_documents",
                .array(
                    s.quarantineSamples.map { sample in
                        .object(
                            JSONObject([
                                ("reason", .string(sample.reason)), ("path", .string(sample.path)),
                                ("line", number(sample.line)),
                                ("entry", number(sample.entry)), ("message", .string(sample.message)),
                                ("excerpt", .string(sample.excerpt)),
                            ]))
                    })
            ),
        ]
        if let bundleId = s.bundleId { pairs.append(("bundle_id", .string(bundleId))) }
        return String(decoding: JSONValue.object(JSONObject(pairs)).canonicalJSON(), as: UTF8.self)
    }
}
