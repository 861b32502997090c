import Foundation
import GRDB

/// Builds the models in catalog order inside the caller's transaction, after (re)creating the run-scoped
/// parameter tables the models read (`analysis_parameters`, `analysis_requested_months`). User values
/// reach SQL only as bound arguments.
struct SQLModelRunner {
    let models: [(model: SQLModel, sql: String)]

    /// Environment variable that, when set (to anything non-empty), prints each model's build time to
    /// standard error: the way to find the slow model on a large store without reproducing the runner.
    static let timingsEnvironmentVariable = "IAPLENS_MODEL_TIMINGS"

    func run(_ options: AnalysisOptions, key: String, in db: Database) throws {
        let printsTimings = !(ProcessInfo.processInfo.environment[Self.timingsEnvironmentVariable] ?? "").isEmpty
        try writeParameters(options, key: key, in: db)
        for (model, sql) in models {
            let start = ContinuousClock.now
            let readBefore = printsTimings ? Self.bytesRead() : 0
            do {
                try db.execute(sql: sql)
            } catch let error as DatabaseError {
                throw AnalysisError.modelFailed(name: model.name, reason: error.message ?? "\(error)")
            }
            if printsTimings {
                let seconds = (ContinuousClock.now - start) / .milliseconds(1) / 1000
                let megabytes = Double(Self.bytesRead() - readBefore) / 1_000_000
                FileHandle.standardError.write(Data(
                    "model \(model.name): \(String(format: "%.3f", seconds)) s, read \(String(format: "%.0f", megabytes)) MB\n".utf8))
            }
        }
    }

    /// Bytes this process has read through `read`/`pread` so far (Linux `/proc/self/io` `rchar`), 0 elsewhere:
    /// with 16 KB pages and a small cache, a model that looks rows up at random reads far more than its tables.
    private static func bytesRead() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    private func writeParameters(_ options: AnalysisOptions, key: String, in db: Database) throws {
        try db.execute(sql: """
            drop table if exists analysis_parameters;
            create table analysis_parameters (
                environment text not null,
                bundle_id text not null,
                as_of_ms integer,
                is_as_of_given integer not null,
                is_small_business integer not null,
                repeat_refunds_min integer not null,
                burst_refunds_min integer not null,
                burst_window_ms integer not null,
                high_rate_min_refunds integer not null,
                high_rate_min_percent integer not null,
                window_ms integer not null,
                model_key text not null
            ) strict;
            drop table if exists analysis_requested_months;
            create table analysis_requested_months (month text primary key) strict;
            """)
        // T: the greatest document time of the documents that count: verified, right app, not TEST, not
        // quarantined (outcomes accepted / other_environment) and of the configured environment.
        try db.execute(
            sql: """
                insert into analysis_parameters
                select
                    ?, ?,
                    coalesce(?, (
                        select max(document_time) from documents
                        where outcome in ('accepted', 'other_environment') and environment = ?
                    )),
                    ?, ?, ?, ?, ?, ?, ?, ?, ?
                """,
            arguments: [
                options.environment, options.bundleId, options.asOf, options.environment, options.asOf != nil,
                options.smallBusiness, options.repeatRefundsMin, options.burstRefundsMin,
                Int64(options.burstWindowHours) * 3_600_000, options.highRateMinRefunds, options.highRateMinPercent,
                Int64(options.windowDays) * 86_400_000, key,
            ])
        let insertMonth = try db.cachedStatement(sql: "insert into analysis_requested_months (month) values (?)")
        for month in options.requestedMonths {
            try insertMonth.execute(arguments: [month])
        }
    }
}
