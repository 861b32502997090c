import ArgumentParser
import IAPAnalytics

/// The quarantine share beyond which a run warns: taken by the commands that read an archive (`ingest`, `run`), whose
/// exit status it decides, and by `report`, whose pages say the same warning.
struct QuarantineThresholdOption: ParsableArguments {
    @Option(
        name: .customLong("max-quarantine-percent"),
        help: ArgumentHelp(
            "Above this share of quarantined documents (default \(QuarantineShare.defaultMaxPercent)) ingest, run and report warn naming the main reason and its remedy, every page says so, and ingest/run exit 65.",
            valueName: "0-100"))
    var maxQuarantinePercent: Int?
}
