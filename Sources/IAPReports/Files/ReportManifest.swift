/// The list of files iaplens wrote into a reports folder last time, `<reports>/.iaplens-files`: one path per line,
/// relative to the folder, sorted.
///
/// Clean-up removes only files this list names (Documentation/Reports.md "What `report` removes"), so a file
/// iaplens never wrote is never deleted, whatever its name, and a folder someone replaced with a symbolic link is
/// never walked. Before writing, the list grows to what was there plus what is about to be written; after, it
/// shrinks to what was written: a run killed in between leaves a list that still names every file it may have
/// left behind.
struct ReportManifest: Equatable {
    static let fileName = ".iaplens-files"

    /// Relative paths, such as `2026-10/accounts/acct_7-0cda15b4c3a3.html`.
    var paths: Set<String>

    init(paths: Set<String> = []) {
        self.paths = paths
    }

    /// The manifest of a reports folder; empty when the folder has none (written by an older iaplens, or new).
    static func read(in directory: String) -> ReportManifest {
        guard let bytes = ReportFileSystem.contents(of: directory + "/" + fileName) else { return ReportManifest() }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        // Only plain relative paths: a line with `..` or a leading `/` cannot have come from iaplens.
        return ReportManifest(
            paths: Set(
                lines.filter { line in
                    !line.hasPrefix("/") && !line.split(separator: "/").contains("..") && !line.isEmpty
                }))
    }

    /// Writes the manifest atomically.
    func write(in directory: String) throws(ReportWriterError) {
        let text = paths.sorted().map { $0 + "\n" }.joined()
        try ReportFileSystem.writeAtomically(Array(text.utf8), to: directory + "/" + Self.fileName)
    }
}
