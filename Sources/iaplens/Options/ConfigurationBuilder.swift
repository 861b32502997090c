import ArgumentParser
import Foundation
import IAPAnalytics
import IAPFormats
import IAPPipeline
import IAPStore

/// Builds the pipeline configuration: the configuration file first (if any), then the flags on top.
enum ConfigurationBuilder {
    static func build(
        store: StoreOptions, app: AppOptions? = nil, reading: ReadingOptions? = nil, inputs: InputOptions? = nil,
        report: ReportOptions? = nil, quarantine: QuarantineThresholdOption? = nil
    ) throws -> PipelineConfiguration {
        var c = PipelineConfiguration()
        if let path = store.config { try ConfigurationFile.apply(path, to: &c) }
        try ConfigurationEnvironment.apply(ProcessInfo.processInfo.environment, to: &c)
        // Only a near miss is said: other IAPLENS_ names may belong to the tools around iaplens (a wrapper's own
        // IAPLENS_HOME), and a quiet run must stay silent for them.
        for case let (name, meant?) in ConfigurationEnvironment.unknownVariables(
            in: ProcessInfo.processInfo.environment, alsoRead: LogOptions.environmentVariables)
        {
            Console.warn(
                "\(name) is set but iaplens reads no such variable: did you mean \(meant)? It has no effect as written."
            )
        }
        if let database = store.database { c.databasePath = database }
        if let app {
            if let value = app.bundleId { c.bundleId = value }
            if let value = app.appAppleId { c.appAppleId = value }
            if let value = app.environment { c.environment = value }
        }
        if let reading {
            if !reading.rootCertificates.isEmpty { c.rootCertificates = reading.rootCertificates }
            if reading.noVerify { c.noVerify = true }
            if let value = reading.v1SharedSecret { c.v1SharedSecret = value }
        }
        if let value = quarantine?.maxQuarantinePercent { c.maxQuarantinePercent = value }
        if let inputs, !inputs.input.isEmpty { c.inputs = inputs.input }
        if let report {
            if let value = report.reports { c.reportsDirectory = value }
            if let value = report.products { c.productsPath = value }
            if let value = report.accounts { c.accountsPath = value }
            if let value = report.reviews { c.reviewsPath = value }
            if let value = report.reportingCurrency { c.reportingCurrency = value }
            if report.smallBusiness { c.smallBusiness = true }
            if let value = report.appleTimeZone { c.appleTimeZone = value }
            if !report.month.isEmpty { c.months = report.month }
            if let text = report.asOf {
                guard let millis = ISO8601Millis.parse(text) else {
                    throw PipelineError.invalidConfiguration("--as-of " + ISO8601Millis.refusal(of: text) + ".")
                }
                c.asOf = millis
            }
            for case (let threshold, let value?) in report.thresholds { c.thresholds[threshold] = value }
        }
        c.normalizeSpellings()
        SQLiteTemporaryFiles.placeBeside(databasePath: c.databasePath)
        let store = (try? StoreLocation(c.databasePath).description) ?? "(not a valid --database)"
        Console.debug(
            "settings: store \(store), bundle \(c.bundleId), \(c.environment), inputs [\(c.inputs.joined(separator: ", "))], "
                + "reports \(c.reportsDirectory), verify \(c.noVerify ? "off" : "on"), "
                + "months \(c.months.isEmpty ? "all" : c.months.joined(separator: " ")), "
                + "as of \(c.asOf.map(ISO8601Millis.format) ?? "the newest document")")
        return c
    }
}
