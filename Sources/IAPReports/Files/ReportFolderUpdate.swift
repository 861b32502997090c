import IAPFormats

/// One `report`'s changes to the reports folder: the rendered files come in a few at a time and are staged as they
/// come (written beside their place, their bytes then let go), and ``finish(months:pruneMonths:)`` puts them all in
/// place at once, removes the files the last run wrote that this one does not, and keeps the manifest of what
/// iaplens wrote (``ReportManifest``).
///
/// A file whose bytes did not change is not written. Nothing is written into, or removed from, a folder inside the
/// reports folder that is a symbolic link (or a file where a folder belongs): such a folder is someone else's,
/// named in ``ReportWriteSummary/foreign``. Dropped before ``finish(months:pruneMonths:)``, an update leaves the
/// folder as it was (its temporaries removed).
final class ReportFolderUpdate {
    private let root: String
    private let previous: ReportManifest
    private let batch = AtomicFileBatch()
    private var summary = ReportWriteSummary()
    /// Every path given so far, relative to the root.
    private var next: Set<String> = []
    private var madeFolders: Set<String> = []

    /// Starts an update of the reports folder `directory` (created with its parents when missing).
    init(directory: String) throws(ReportWriterError) {
        root = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        try ReportFileSystem.makeDirectory(root)
        previous = ReportManifest.read(in: root)
    }

    /// Stages `files` (each a full path under the root, with its bytes); a file already as it should be is only
    /// counted. The files of one folder come in one call.
    func add(_ files: [(path: String, bytes: [UInt8])]) throws(ReportWriterError) {
        var kept: [(path: String, bytes: [UInt8])] = []
        for file in files {
            if let foreign = ReportFileSystem.foreignFolder(under: root, for: file.path) {
                if !summary.foreign.contains(foreign) { summary.foreign.append(foreign) }
            } else {
                kept.append(file)
            }
        }
        // Folders that get a file: a month without flagged accounts has no empty `accounts/`.
        var names: [String: Set<String>] = [:]
        for file in kept {
            let slash = file.path.lastIndex(of: "/") ?? file.path.startIndex
            names[String(file.path[..<slash]), default: []].insert(String(file.path[file.path.index(after: slash)...]))
        }
        for (folder, inFolder) in names.sorted(by: { $0.key < $1.key }) {
            if madeFolders.insert(folder).inserted { try ReportFileSystem.makeDirectory(folder) }
            // A run killed while writing leaves `<name>.tmp-<pid>` behind; the run lock says no writer is alive.
            ReportFileSystem.removeStaleTemporaries(in: folder, names: inFolder)
        }
        for file in kept {
            next.insert(String(file.path.dropFirst(root.count + 1)))
            if ReportFileSystem.contents(of: file.path) == file.bytes {
                summary.unchanged.append(file.path)
            } else {
                try batch.stage(file.bytes, to: file.path)
                summary.written.append(file.path)
            }
        }
    }

    /// Puts every staged file in place, then removes what the last run wrote and this one did not.
    /// - Parameters:
    ///   - months: The months the report set holds.
    ///   - pruneMonths: True when the set holds every month the data has: month folders of other months go.
    func finish(months: Set<String>, pruneMonths: Bool) throws(ReportWriterError) -> ReportWriteSummary {
        func month(of path: String) -> String? {
            let first = String(path.split(separator: "/").first ?? "")
            return CalendarMonth(first)?.text == first ? first : nil
        }
        var listed = next
        if !pruneMonths {
            // A run for some months (`--month`) leaves the others' files, and their place in the manifest, alone.
            for path in previous.paths where month(of: path).map({ !months.contains($0) }) ?? false {
                listed.insert(path)
            }
        }
        // The manifest names every file before any is put in place; a run killed after this still names them all.
        ReportFileSystem.removeStaleTemporaries(in: root, names: [ReportManifest.fileName])
        try ReportManifest(paths: previous.paths.union(listed)).write(in: root)
        try batch.commit()

        // Stale files of the months written (and of the top level): what iaplens wrote last time and not now.
        for path in previous.paths.subtracting(listed).sorted() {
            if let month = month(of: path), !months.contains(month) { continue }
            let full = root + "/" + path
            if ReportFileSystem.foreignFolder(under: root, for: full) == nil && ReportFileSystem.removeFile(full) {
                summary.removed.append(full)
            }
        }
        for month in months.sorted() {
            for folder in ["charts", AccountPagePath.folder]
            where ReportFileSystem.removeEmptyFolder(root + "/\(month)/\(folder)") {
                summary.removed.append(root + "/\(month)/\(folder)")
            }
        }
        if pruneMonths {
            for name in ReportFileSystem.entries(of: root).sorted()
            where CalendarMonth(name)?.text == name && !months.contains(name) {
                summary.removed += ReportFileSystem.removeMonthFolder(name, in: root, written: previous.paths)
            }
        }
        try ReportManifest(paths: listed).write(in: root)
        return summary
    }
}
