#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX calls the writer needs: read a file, write one atomically, make folders.
///
/// POSIX rather than Foundation so that "atomic" means exactly temp files + one flush + `rename(2)` on one file
/// system, "unchanged" means the existing bytes compare equal, and no call follows a symbolic link inside the
/// reports folder (Documentation/Reports.md "What `report` removes").
enum ReportFileSystem {
    /// The whole file, or nil when it does not exist or cannot be read (then it is simply rewritten).
    /// A symbolic link is not followed: it reads as missing, so the writer replaces the link with its own file.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// Creates the folder and its parents when missing.
    static func makeDirectory(_ path: String) throws(ReportWriterError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .cannotCreateDirectory(path: prefix, errno: errno)
            }
            prefix += "/"
        }
    }

    /// Removes `<name>.tmp-<digits>` files that ``writeAtomically(_:to:)`` left in `folder` when a run was killed
    /// between creating and renaming them. Only names of report files are touched; anything else is left alone.
    static func removeStaleTemporaries(in folder: String, names: Set<String>) {
        guard let directory = opendir(folder) else { return }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let pid = name.reversed().prefix { $0.isASCII && $0.isNumber }
            let head = name.dropLast(pid.count)
            guard !pid.isEmpty, head.hasSuffix(".tmp-") else { continue }
            if names.contains(String(head.dropLast(5))) { stale.append(name) }
        }
        closedir(directory)
        for name in stale { unlink(folder + "/" + name) }
    }

    /// The first folder on the way from `directory` to `path` (exclusive of `directory`, inclusive of `path`'s own
    /// folder) that exists but is not a real folder: a symbolic link, or a file. Nil when every one is a real
    /// folder or missing (then it will be created).
    static func foreignFolder(under directory: String, for path: String) -> String? {
        guard path.hasPrefix(directory + "/") else { return nil }
        let relative = path.dropFirst(directory.count + 1).split(separator: "/").dropLast()
        var folder = directory
        for component in relative {
            folder += "/" + component
            var info = stat()
            if lstat(folder, &info) != 0 { return nil }
            if (info.st_mode & S_IFMT) != S_IFDIR { return folder }
        }
        return nil
    }

    /// Removes `path` when it is a regular file (never a link's target, never a folder). True when removed.
    static func removeFile(_ path: String) -> Bool {
        isRegularFile(path) && unlink(path) == 0
    }

    /// Removes `path` when it is an empty real folder. True when removed.
    static func removeEmptyFolder(_ path: String) -> Bool {
        isRealFolder(path) && rmdir(path) == 0
    }

    /// The names in a folder (none when it cannot be read).
    static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a month folder iaplens wrote, with its `charts/` and `accounts/`, when everything in it is a file
    /// the manifest names (`written`, relative to the reports folder) or a temporary of one. Anything else (a note
    /// someone left), or a folder that is a symbolic link, keeps the whole folder. Returns the removed paths.
    static func removeMonthFolder(_ name: String, in directory: String, written: Set<String>) -> [String] {
        let folder = directory + "/" + name
        guard isRealFolder(folder) else { return [] }
        var files: [String] = []
        func own(_ relative: String) -> Bool {
            let base = relative.split(separator: ".tmp-").first.map(String.init) ?? relative
            return written.contains(base) && isRegularFile(directory + "/" + relative)
        }
        for entry in entries(of: folder) {
            let relative = name + "/" + entry
            if entry == "charts" || entry == "accounts" {
                guard isRealFolder(folder + "/" + entry) else { return [] }
                for inner in entries(of: folder + "/" + entry) {
                    guard own(relative + "/" + inner) else { return [] }
                    files.append(directory + "/" + relative + "/" + inner)
                }
            } else if own(relative) {
                files.append(directory + "/" + relative)
            } else {
                return []
            }
        }
        files.sort()
        let removed = files.filter(removeFile)
        _ = removeEmptyFolder(folder + "/charts")
        _ = removeEmptyFolder(folder + "/accounts")
        return removeEmptyFolder(folder) ? removed + [folder] : removed
    }

    /// Whether `path` is a regular file (not a link, not a folder).
    static func isRegularFile(_ path: String) -> Bool {
        kind(of: path) == S_IFREG
    }

    /// Whether `path` is a real folder (not a link to one).
    static func isRealFolder(_ path: String) -> Bool {
        kind(of: path) == S_IFDIR
    }

    /// Whether anything (a file, a folder, a link, even one to nothing) is at `path`.
    static func exists(_ path: String) -> Bool {
        kind(of: path) != nil
    }

    /// The type bits of what is at `path` itself, a link not followed; nil when nothing is.
    private static func kind(of path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// Writes `bytes` to a temporary file beside `path`, flushes it, and renames it over `path`, so a reader (or a
    /// killed run) only ever sees the old file or the complete new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReportWriterError) {
        let batch = AtomicFileBatch()
        try batch.stage(bytes, to: path)
        try batch.commit()
    }

    /// The system's message for an errno value.
    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
