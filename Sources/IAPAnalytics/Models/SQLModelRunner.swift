import Foundation
import IAPFormats
import IAPStore

/// Builds the models in catalog order inside the caller's transaction, after (re)creating the run-scoped
/// parameter tables the models read (`analysis_parameters`, `analysis_requested_months`). User values
/// reach SQL only as bound arguments.
///
/// Each model file holds one `select`; the runner wraps it in the DDL of its materialisation for the connection's
/// dialect (drop, create, the catalog's indexes, and fresh planner statistics where the engine keeps them), so the
/// model files are the same for both engines.
struct SQLModelRunner {
    let models: [(model: SQLModel, sql: String)]
    /// Told of each table model once it is built, on whichever thread built it.
    var counter: ModelBuildCounter?

    /// Environment variable that, when set (to anything non-empty), prints each model's build time to
    /// standard error: the way to find the slow model on a large store without reproducing the runner.
    static let timingsEnvironmentVariable = "IAPLENS_MODEL_TIMINGS"

    /// Environment variable naming one model whose query plan is printed to standard error before it is built
    /// (PostgreSQL: `explain analyze`, which runs the query once more; SQLite: `explain query plan`), after the
    /// statements that build it as rendered for this engine (to run them by hand in `sqlite3` or `psql`).
    static let explainEnvironmentVariable = "IAPLENS_MODEL_EXPLAIN"

    func run(_ options: AnalysisOptions, key: String, in connection: any StoreConnection, schema: String) throws {
        try writeParameters(options, key: key, in: connection)
        try build(in: connection, schema: schema)
    }

    /// Builds the models with the parameter tables as they stand (written by the last ``run``).
    func build(in connection: any StoreConnection, schema: String) throws {
        let printsTimings = Self.printsTimings
        let template = SQLTemplate(dialect: connection.dialect, schema: schema)
        let explained = Self.explainedModel
        for (model, sql) in models {
            if model.name == explained {
                let select = try template.render(sql)
                FileHandle.standardError.write(
                    Data(
                        (try Self.statements(model, select: select, dialect: connection.dialect) + "\n").utf8))
                try Self.printPlan(of: select, in: connection)
            }
            let start = ContinuousClock.now
            let readBefore = printsTimings ? Self.bytesRead() : 0
            try Self.execute(model, in: connection) {
                try Self.statements(model, select: try template.render(sql), dialect: connection.dialect)
            }
            if printsTimings {
                let megabytes = Double(Self.bytesRead() - readBefore) / 1_000_000
                FileHandle.standardError.write(
                    Data(
                        "model \(model.name): \(Self.seconds(ContinuousClock.now - start)) s, read \(String(format: "%.0f", megabytes)) MB\n"
                            .utf8))
            }
            counter?.finished(model)
        }
    }

    /// Runs the script `statements` gives for `model`; any failure, rendering included, is said as the model's.
    static func execute(_ model: SQLModel, in connection: any StoreConnection, _ statements: () throws -> String) throws
    {
        do {
            try connection.executeScript(try statements())
        } catch let error as AnalysisError {
            throw error
        } catch let error as SQLTemplate.Failure {
            throw AnalysisError.modelFailed(name: model.name, reason: error.description)
        } catch let error as StoreError {
            // A missing grant is the role's, not the model's: said as such, with its own exit status.
            if case .permissionDenied = error { throw error }
            throw AnalysisError.modelFailed(name: model.name, reason: error.description)
        } catch {
            throw AnalysisError.modelFailed(name: model.name, reason: "\(error)")
        }
    }

    /// True when ``timingsEnvironmentVariable`` is set.
    static var printsTimings: Bool { !(ProcessInfo.processInfo.environment[timingsEnvironmentVariable] ?? "").isEmpty }

    /// The model ``explainEnvironmentVariable`` names, or "".
    static var explainedModel: String { ProcessInfo.processInfo.environment[explainEnvironmentVariable] ?? "" }

    /// Prints `what` took since `start` when ``timingsEnvironmentVariable`` is set.
    static func printTiming(_ what: String, since start: ContinuousClock.Instant) {
        guard printsTimings else { return }
        FileHandle.standardError.write(Data("\(what): \(seconds(ContinuousClock.now - start)) s\n".utf8))
    }

    /// A duration as seconds with three decimals, as the timings print it.
    static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration / .milliseconds(1) / 1000)
    }

    static func printPlan(of select: String, in connection: any StoreConnection) throws {
        let query = select.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
            in: CharacterSet(charactersIn: ";"))
        let explain = connection.dialect == .postgres ? "explain (analyze, buffers) " : "explain query plan "
        for row in try connection.rows(explain + query) {
            FileHandle.standardError.write(Data(((row.values.last?.text ?? "") + "\n").utf8))
        }
    }

    /// The DDL that materialises `model` from its rendered `select`.
    static func statements(_ model: SQLModel, select: String, dialect: SQLDialect) throws -> String {
        let kind = model.materialization.isView ? "view" : "table"
        let qualified = model.materialization.isTemporary ? dialect.temporaryTable(model.name) : model.name
        let temporary = model.materialization.isTemporary ? "temp " : ""
        var statements = [
            "drop \(kind) if exists \(qualified)\(dialect.dropCascade)",
            "create \(temporary)\(kind) \(model.name) as\n"
                + select.trimmingCharacters(in: .whitespacesAndNewlines)
                .trimmingCharacters(in: CharacterSet(charactersIn: ";")),
        ]
        for index in model.indexes {
            statements.append(
                dialect.createIndex(
                    index.name, on: model.name, temporary: model.materialization.isTemporary, columns: index.columns,
                    unique: index.isUnique))
        }
        if !model.materialization.isView, let analyze = dialect.analyzeTable(qualified) { statements.append(analyze) }
        return statements.joined(separator: ";\n") + ";"
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

    /// The run-scoped tables ``writeParameters(_:key:in:into:)`` writes and the models read through `source()`.
    static let parameterTables = ["analysis_parameters", "analysis_requested_months", "analysis_time_zone_offsets"]

    /// Writes the parameter tables, in `schema` when given (SQL text naming a schema, quoted where needed: a worker's,
    /// or the store's when workers' schemas are attached), else where unqualified names go (the store's).
    func writeParameters(
        _ options: AnalysisOptions, key: String, in connection: any StoreConnection, into schema: String? = nil
    ) throws {
        let dialect = connection.dialect
        let analysisParameters = schema.map { "\($0).analysis_parameters" } ?? "analysis_parameters"
        let requestedMonths = schema.map { "\($0).analysis_requested_months" } ?? "analysis_requested_months"
        let timeZoneOffsets = schema.map { "\($0).analysis_time_zone_offsets" } ?? "analysis_time_zone_offsets"
        let integer = dialect.integerType
        let text = dialect.textType
        // One row, each value under its name (the models read them by name). Flags are integers (0 / 1) on both
        // engines: the models compare them with `= 1`.
        let parameters: [(name: String, type: String, value: SQLValue)] = [
            ("environment", "\(text) not null", .text(options.environment)),
            ("bundle_id", "\(text) not null", .text(options.bundleId)),
            ("as_of_ms", integer, SQLValue(options.asOf)),
            ("is_as_of_given", "\(integer) not null", SQLValue(options.asOf != nil)),
            ("is_small_business", "\(integer) not null", SQLValue(options.smallBusiness)),
            ("repeat_refunds_min", "\(integer) not null", SQLValue(options.thresholds.repeatRefunds)),
            ("burst_refunds_min", "\(integer) not null", SQLValue(options.thresholds.burstRefunds)),
            (
                "burst_window_ms", "\(integer) not null",
                .integer(Int64(options.thresholds.burstWindowHours) * 3_600_000)
            ),
            ("high_rate_min_refunds", "\(integer) not null", SQLValue(options.thresholds.highRateRefunds)),
            ("high_rate_min_percent", "\(integer) not null", SQLValue(options.thresholds.highRatePercent)),
            (
                "window_ms", "\(integer) not null",
                .integer(Int64(options.thresholds.windowDays) * CivilCalendar.millisecondsPerDay)
            ),
            ("model_key", "\(text) not null", .text(key)),
        ]
        try connection.executeScript(
            """
            drop table if exists \(analysisParameters)\(dialect.dropCascade);
            create table \(analysisParameters) (
                \(parameters.map { "\($0.name) \($0.type)" }.joined(separator: ",\n    "))
            )\(dialect.tableSuffix);
            drop table if exists \(requestedMonths)\(dialect.dropCascade);
            create table \(requestedMonths) (month \(text) primary key)\(dialect.tableSuffix);
            """)
        try connection.execute(
            "insert into \(analysisParameters) (\(parameters.map(\.name).joined(separator: ", "))) values ("
                + Array(repeating: "?", count: parameters.count).joined(separator: ", ") + ")",
            parameters.map(\.value))
        // T, unless --as-of gave it: the greatest document time of the documents that count: verified, right app,
        // not TEST, not quarantined (outcomes accepted / other_environment) and of the configured environment.
        // Decision (README "The as-of time"): a V1 body's time is nobody's signature (its archive envelope, or its
        // own dates), so when the store holds signed documents, T is the newest signed time and V1 times cannot
        // move it; an archive of V1 bodies only takes T from them (ingest refused those dated in the future).
        let v1 = DocumentKind.v1Notification.rawValue
        try connection.execute(
            """
            update \(analysisParameters) set as_of_ms = (
                select coalesce(max(case when kind <> '\(v1)' then document_time end), max(document_time))
                from documents
                where outcome in ('accepted', 'other_environment') and environment = ?
            )
            where as_of_ms is null
            """,
            [.text(options.environment)])
        for month in options.requestedMonths {
            try connection.execute("insert into \(requestedMonths) (month) values (?)", [.text(month)])
        }
        // Apple's reporting zone as offsets by instant (AppleTimeZone): `{{ apple_day_of_ms(…) }}` reads them.
        try connection.executeScript(
            """
            drop table if exists \(timeZoneOffsets)\(dialect.dropCascade);
            create table \(timeZoneOffsets) (
                from_ms \(integer) primary key,
                offset_ms \(integer) not null
            )\(dialect.tableSuffix);
            """)
        let offsets = AppleTimeZone(identifier: options.appleTimeZone)?.offsets ?? []
        var start = 0
        while start < offsets.count {
            let chunk = offsets[start..<min(start + 200, offsets.count)]
            try connection.execute(
                "insert into \(timeZoneOffsets) (from_ms, offset_ms) values "
                    + Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", "),
                chunk.flatMap { [SQLValue.integer($0.fromMs), .integer($0.offsetMs)] })
            start += chunk.count
        }
        for table in [analysisParameters, requestedMonths, timeZoneOffsets] {
            if let analyze = dialect.analyzeTable(table) { try connection.executeScript(analyze) }
        }
    }
}
