import IAPAnalytics
import IAPFormats
import IAPPipeline
import IAPReports

/// `run --json`: the run as one JSON line on standard output (keys sorted), for monitoring and log shippers.
/// Warnings go to standard error as well and are listed in `warnings` (the run's quarantine share, and what the
/// reports lead with); the exit code is the same as without `--json`.
enum RunSummaryJSON {
    static func line(
        ingest: IngestSummary, analysis: AnalysisSummary?, reports: ReportWriteSummary?, exitCode: Int32,
        warnings: [String] = []
    ) -> String {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(Int64(value))) }
        /// `{"key": count, …}`, keys in byte order.
        func counts(_ values: [String: Int]) -> JSONValue {
            .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, number($0.value)) }))
        }
        var pairs: [(String, JSONValue)] = [
            ("exit_code", number(Int(exitCode))),
            (
                "ingest",
                .object(
                    JSONObject([
                        ("files_found", number(ingest.filesFound)), ("files_read", number(ingest.filesRead)),
                        ("files_already_read", number(ingest.filesAlreadyRead)),
                        ("files_ignored", number(ingest.filesIgnored.count)),
                        ("folders_left_out", .array(ingest.foldersLeftOut.map { .string($0) })),
                        ("unreadable_files", number(ingest.unreadableFiles.count)),
                        ("documents_read", number(ingest.documentsRead)),
                        ("accepted", number(ingest.accepted)), ("other_environment", number(ingest.otherEnvironment)),
                        ("test_notifications", number(ingest.testNotifications)),
                        ("quarantined", number(ingest.quarantined)),
                        ("quarantined_by_reason", counts(ingest.quarantinedByReason)),
                        ("apple_reports_found", number(ingest.appleReportsFound)),
                        ("apple_reports_loaded", number(ingest.appleReportsLoaded)),
                        ("apple_report_rows", number(ingest.appleReportRows)),
                        ("apple_payment_summaries_found", number(ingest.applePaymentSummariesFound)),
                        ("apple_payment_summaries_loaded", number(ingest.applePaymentSummariesLoaded)),
                        ("apple_report_quarantine", counts(ingest.appleReportQuarantine)),
                    ]))
            ),
        ]
        if let analysis {
            var fields: [(String, JSONValue)] = [("months", .array(analysis.months.map { .string($0) }))]
            if let asOf = analysis.asOf { fields.append(("as_of", .string(ISO8601Millis.format(asOf)))) }
            fields.append(("models_rebuilt", .bool(!analysis.modelsWereCurrent)))
            pairs.append(("analysis", .object(JSONObject(fields))))
        }
        if let reports {
            pairs.append(
                (
                    "reports",
                    .object(
                        JSONObject([
                            ("written", number(reports.written.count)), ("unchanged", number(reports.unchanged.count)),
                        ]))
                ))
        }
        pairs.append(("warnings", .array(warnings.map { .string($0) })))
        return String(decoding: JSONValue.object(JSONObject(pairs)).canonicalJSON(), as: UTF8.self)
    }
}
