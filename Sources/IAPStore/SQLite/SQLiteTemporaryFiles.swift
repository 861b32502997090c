import Foundation

/// Where SQLite puts the files it spills to (large sorts, temporary tables, statement journals).
///
/// SQLite looks at `SQLITE_TMPDIR`, then `TMPDIR`, then `/var/tmp` and `/tmp`. iaplens writes only under
/// `--database` and `--reports`, so unless the user chose a folder with `SQLITE_TMPDIR`, spills go beside the
/// store: the same volume and permissions as the data they come from. Set once, before the first SQLite call
/// (SQLite reads the variable once). The command line calls it, not the library by itself, because it changes the
/// whole process (tests run stores of many folders in one process).
public enum SQLiteTemporaryFiles {
    public static func placeBeside(databasePath: String) {
        guard ProcessInfo.processInfo.environment["SQLITE_TMPDIR"] == nil, !StoreLocation.isPostgres(databasePath)
        else { return }
        let folder = (databasePath as NSString).deletingLastPathComponent
        setenv("SQLITE_TMPDIR", folder.isEmpty ? "." : folder, 1)
    }
}
