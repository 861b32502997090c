/// Why the given inputs could not be expanded into files.
public enum InputDiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path given on the command line does not exist.
    case notFound(path: String)
    /// A path exists but is neither a regular file nor a folder (a socket, a device, a dangling link…).
    case notAFileOrFolder(path: String)
    /// A folder could not be listed.
    case unreadableFolder(path: String, reason: String)

    /// A sentence naming the path.
    public var description: String {
        switch self {
        case .notFound(let path):
            "Input \"\(path)\" does not exist; check the path (inputs are files or folders)."
        case .notAFileOrFolder(let path):
            "Input \"\(path)\" is neither a regular file nor a folder (a pipe, a device, a link to nothing): iaplens "
                + "reads a file whole to know it again on the next run, so save a stream to a file and pass that."
        case .unreadableFolder(let path, let reason):
            "Cannot list folder \"\(path)\": \(reason); check its permissions."
        }
    }
}

/// A file that could not be opened or read.
public struct FileAccessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public let path: String
    /// The operating system's reason (`strerror`).
    public let reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// A sentence naming the file.
    public var description: String { "Cannot read \"\(path)\": \(reason)." }
}
