/// Every exit status of the command line, in one place: the errors of each layer say which one they end with, the
/// commands end with them, and the README's table lists them (sysexits.h numbers where one fits).
public enum ExitStatus {
    /// The command completed.
    public static let success: Int32 = 0
    /// It failed; the store keeps every committed batch: rerun (also when the database server cannot be reached).
    public static let failure: Int32 = 1
    /// Bad usage or configuration: the message names the option (EX_USAGE).
    public static let usage: Int32 = 64
    /// The run completed but quarantined more than `--max-quarantine-percent` of what it read (EX_DATAERR).
    public static let tooMuchQuarantined: Int32 = 65
    /// The run found no input files (EX_NOINPUT).
    public static let noInput: Int32 = 66
    /// The run lock could not be created beside a SQLite store (EX_CANTCREAT).
    public static let cannotLock: Int32 = 73
    /// Busy or temporarily failing: another run holds the store, or Apple kept failing; retry later (EX_TEMPFAIL).
    public static let tryLater: Int32 = 75
    /// Apple refused an answer `consumption` sent (recorded; not sent again) (EX_PROTOCOL).
    public static let appleRefused: Int32 = 76
    /// A permission is missing: Apple refused the key, or the database role lacks a grant (EX_NOPERM).
    public static let noPermission: Int32 = 77

    /// Every status with what it means, for `--help` (the README's table says the same).
    public static let meanings: [(status: Int32, meaning: String)] = [
        (success, "completed"),
        (tooMuchQuarantined, "completed but more than --max-quarantine-percent of the documents were quarantined"),
        (noInput, "no input files found"),
        (failure, "failed (rerun: nothing committed is lost)"),
        (usage, "bad usage or configuration (the message names the option)"),
        (cannotLock, "the run lock cannot be created"),
        (tryLater, "another run holds the store, or Apple's API kept failing (retry later)"),
        (appleRefused, "Apple refused an answer consumption sent"),
        (noPermission, "a permission is missing: Apple refused the API key, or the database role lacks a grant"),
    ]

    /// `0 completed, 65 …`: the list as one sentence.
    public static var summary: String { meanings.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ") + "." }
}
