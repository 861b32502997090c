import IAPFormats

extension ReportWriter {
    /// Puts the rendered files into the reports folder: writes those whose bytes changed, removes the files the
    /// last run wrote that this one does not, and keeps the manifest of what iaplens wrote (``ReportManifest``).
    ///
    /// Nothing is written into, or removed from, a folder inside the reports folder that is a symbolic link (or a
    /// file where a folder belongs): such a folder is someone else's, named in ``ReportWriteSummary/foreign``.
    /// - Parameters:
    ///   - files: Every file of the set, with its bytes.
    ///   - months: The months the set holds.
    ///   - pruneMonths: True when the set holds every month the data has: month folders of other months go.
    func apply(
        _ files: [(path: String, bytes: [UInt8])], months: Set<String>, pruneMonths: Bool
    ) throws(ReportWriterError) -> ReportWriteSummary {
        var summary = ReportWriteSummary()
        let root = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        try ReportFileSystem.makeDirectory(root)
        var kept: [(path: String, bytes: [UInt8])] = []
        for file in files {
            if let foreign = ReportFileSystem.foreignFolder(under: root, for: file.path) {
                if !summary.foreign.contains(foreign) { summary.foreign.append(foreign) }
            } else {
                kept.append(file)
            }
        }
        // Folders that get a file: a month without flagged accounts has no empty `accounts/`.
        var folders: [String] = [root]
        for file in kept {
            let parent = String(file.path[..<(file.path.lastIndex(of: "/") ?? file.path.startIndex)])
            if !parent.isEmpty && !folders.contains(parent) { folders.append(parent) }
        }
        for folder in folders { try ReportFileSystem.makeDirectory(folder) }
        // A run killed while writing leaves `<name>.tmp-<pid>` behind; the run lock says no writer is alive.
        // The manifest is written the same way, in the reports folder itself.
        let names = Set(kept.map { ($0.path as String).split(separator: "/").last.map(String.init) ?? "" })
            .union([ReportManifest.fileName])
        for folder in folders { ReportFileSystem.removeStaleTemporaries(in: folder, names: names) }

        func relative(_ path: String) -> String { String(path.dropFirst(root.count + 1)) }
        func month(of path: String) -> String? {
            let first = String(path.split(separator: "/").first ?? "")
            return CalendarMonth(first)?.text == first ? first : nil
        }
        let previous = ReportManifest.read(in: root)
        var next = Set(kept.map { relative($0.path) })
        if !pruneMonths {
            // A run for some months (`--month`) leaves the others' files, and their place in the manifest, alone.
            for path in previous.paths where month(of: path).map({ !months.contains($0) }) ?? false { next.insert(path) }
        }
        try ReportManifest(paths: previous.paths.union(next)).write(in: root)

        var changed: [(path: String, bytes: [UInt8])] = []
        for file in kept {
            if ReportFileSystem.contents(of: file.path) == file.bytes {
                summary.unchanged.append(file.path)
            } else {
                changed.append(file)
            }
        }
        try ReportFileSystem.writeAtomically(changed)
        summary.written = changed.map(\.path)

        // Stale files of the months written (and of the top level): what iaplens wrote last time and not now.
        for path in previous.paths.subtracting(next).sorted() {
            if let month = month(of: path), !months.contains(month) { continue }
            let full = root + "/" + path
            if ReportFileSystem.foreignFolder(under: root, for: full) == nil && ReportFileSystem.removeFile(full) {
                summary.removed.append(full)
            }
        }
        for month in months.sorted() {
            for folder in ["charts", AccountPagePath.folder] where ReportFileSystem.removeEmptyFolder(root + "/\(month)/\(folder)") {
                summary.removed.append(root + "/\(month)/\(folder)")
            }
        }
        if pruneMonths {
            for name in ReportFileSystem.entries(of: root).sorted()
            where CalendarMonth(name)?.text == name && !months.contains(name) {
                summary.removed += ReportFileSystem.removeMonthFolder(name, in: root, written: previous.paths)
            }
        }
        try ReportManifest(paths: next).write(in: root)
        return summary
    }
}
