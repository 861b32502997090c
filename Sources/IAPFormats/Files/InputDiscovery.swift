#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands the files and folders given to the CLI into the input files to read.
public enum InputDiscovery {
    /// Accepted name endings (compared case-insensitively), each also accepted with `.gz` appended.
    public static let acceptedExtensions = [".json", ".jsonl", ".ndjson"]

    /// Expands files and folders into input files sorted by path (byte order).
    ///
    /// Folders are searched recursively; symbolic links are followed, but a folder already visited (same device and
    /// inode) is not entered again, so link loops end. Only names ending `.json`, `.jsonl`, `.ndjson` (optionally
    /// followed by `.gz`) are kept; other files, whether inside folders or given directly, are returned in `skipped`
    /// (sorted), where ingest looks for Apple's finance files by content. An entry of a folder that is not a regular
    /// file or folder (a named pipe, a socket, a device, a dangling link) is returned in `notFiles` and never opened:
    /// opening a named pipe waits for a writer, and a scheduled run would wait with it. A file reached twice is listed
    /// once.
    ///
    /// A folder of `leavingOut` (iaplens's own reports folder, say, when it lies under an input) is not entered; the
    /// ones reached are returned in `leftOut`, so that the caller can say so.
    /// - Throws: ``InputDiscoveryError`` naming a given path that does not exist, is not a file or folder, or a folder
    ///   that cannot be listed.
    public static func discover(
        _ paths: [String], leavingOut: [String] = []
    ) throws(InputDiscoveryError) -> (files: [InputFile], skipped: [String], notFiles: [String], leftOut: [String]) {
        var walker = Walker()
        for folder in leavingOut {
            var info = stat()
            if stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                walker.leavingOut[FileIdentity(info)] = folder
            }
        }
        let given = try paths.map { path throws(InputDiscoveryError) in (path, try fileOrFolder(path)) }
        // A folder given as an input is read, even one of `leavingOut`: only one reached inside another is left out.
        for (_, info) in given { walker.leavingOut.removeValue(forKey: FileIdentity(info)) }
        for (path, info) in given {
            if info.st_mode & S_IFMT == S_IFREG {
                walker.add(file: path, info: info)
            } else {
                try walker.walk(folder: path, info: info)
            }
        }
        let files = walker.files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        let skipped = walker.skipped.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let notFiles = walker.notFiles.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (files, skipped, notFiles, walker.leftOut.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Checks, without reading anything, that each given path is a file or a folder: a stage checks this before it
    /// opens (or creates) a store, so a mistyped input leaves nothing behind.
    /// - Throws: ``InputDiscoveryError`` naming the first path that does not exist or is neither.
    public static func requireFilesOrFolders(_ paths: [String]) throws(InputDiscoveryError) {
        for path in paths { _ = try fileOrFolder(path) }
    }

    /// The `stat` of a given path that is a regular file or a folder (links followed).
    private static func fileOrFolder(_ path: String) throws(InputDiscoveryError) -> stat {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if lstat(path, &info) == 0 { throw .notAFileOrFolder(path: path) }  // a dangling link
            throw .notFound(path: path)
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFDIR else { throw .notAFileOrFolder(path: path) }
        return info
    }

    /// `true` when `name` ends with an accepted extension, optionally followed by `.gz`.
    public static func isAcceptedName(_ name: String) -> Bool {
        var lower = name.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        return acceptedExtensions.contains { lower.hasSuffix($0) && lower.count > $0.count }
    }

    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private struct Walker {
        var files: [InputFile] = []
        var skipped: [String] = []
        var notFiles: [String] = []
        var seenFiles: Set<FileIdentity> = []
        var seenFolders: Set<FileIdentity> = []
        var leavingOut: [FileIdentity: String] = [:]
        var leftOut: [String] = []

        mutating func add(file path: String, info: stat) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard InputDiscovery.isAcceptedName(name) else {
                skipped.append(path)
                return
            }
            guard seenFiles.insert(FileIdentity(info)).inserted else { return }
            files.append(InputFile(path: path, byteCount: Int64(info.st_size)))
        }

        mutating func walk(folder path: String, info: stat) throws(InputDiscoveryError) {
            if let folder = leavingOut[FileIdentity(info)] {
                if !leftOut.contains(folder) { leftOut.append(folder) }
                return
            }
            guard seenFolders.insert(FileIdentity(info)).inserted else { return }
            guard let directory = opendir(path) else {
                throw .unreadableFolder(path: path, reason: POSIXFile.errnoText())
            }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            let prefix = path.hasSuffix("/") ? path : path + "/"
            for name in names {
                let child = prefix + name
                var childInfo = stat()
                // stat follows links; a dangling link or a vanished entry is passed over, not fatal.
                guard stat(child, &childInfo) == 0 else {
                    notFiles.append(child)
                    continue
                }
                switch childInfo.st_mode & S_IFMT {
                case S_IFREG: add(file: child, info: childInfo)
                case S_IFDIR: try walk(folder: child, info: childInfo)
                default: notFiles.append(child)
                }
            }
        }
    }
}
