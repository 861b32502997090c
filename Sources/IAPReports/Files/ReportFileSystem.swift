#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX calls the writer needs: read a file, write one atomically, make folders.
///
/// POSIX rather than Foundation so that "atomic" means exactly temp file + `fsync` + `rename(2)` on one file
/// system, and "unchanged" means the existing bytes compare equal, with no Foundation behaviour in between.
enum ReportFileSystem {
    /// The whole file, or nil when it does not exist or cannot be read (then it is simply rewritten).
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
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

    /// Removes the files of `folder` whose names end with `suffix` and whose paths are not in `keep`: charts and
    /// case pages a month no longer has. Returns the removed paths, sorted.
    static func removeFiles(in folder: String, endingWith suffix: String, except keep: Set<String>) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let path = folder + "/" + name
            if name.hasSuffix(suffix) && !keep.contains(path) { stale.append(path) }
        }
        closedir(directory)
        stale.sort()
        return stale.filter { unlink($0) == 0 }
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
    /// iaplens writes (`ownFiles`, `charts/*.svg`, `accounts/*.html`, or a temporary of one). Anything else (a note
    /// someone left) keeps the whole folder. Returns the removed paths.
    static func removeMonthFolder(_ folder: String, ownFiles: Set<String>) -> [String] {
        var files: [String] = []
        for name in entries(of: folder) {
            let path = folder + "/" + name
            let base = name.split(separator: ".tmp-").first.map(String.init) ?? name
            if name == "charts" || name == "accounts" {
                let suffix = name == "charts" ? ".svg" : ".html"
                for inner in entries(of: path) {
                    guard inner.hasSuffix(suffix) && isRegularFile(path + "/" + inner) else { return [] }
                    files.append(path + "/" + inner)
                }
            } else if ownFiles.contains(base) && isRegularFile(path) {
                files.append(path)
            } else {
                return []
            }
        }
        files.sort()
        for file in files { unlink(file) }
        rmdir(folder + "/charts")
        rmdir(folder + "/accounts")
        return rmdir(folder) == 0 ? files + [folder] : files
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Writes `bytes` to a temporary file beside `path`, flushes it, and renames it over `path`, so a reader (or a
    /// killed run) only ever sees the old file or the complete new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReportWriterError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotWrite(path: path, operation: "creating a temporary file", errno: errno)
        }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw .cannotWrite(path: path, operation: "writing", errno: code)
            }
            offset += count
        }
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw .cannotWrite(path: path, operation: "flushing to disk", errno: code)
        }
        close(descriptor)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw .cannotWrite(path: path, operation: "renaming the temporary file into place", errno: code)
        }
    }

    /// The system's message for an errno value.
    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
