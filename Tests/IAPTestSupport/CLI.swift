import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `iaplens` executable, run as a subprocess (what a scheduler does): the one way tests run the command line.
public enum CLI {
    /// The repository root, from this file's path (Tests/IAPTestSupport/CLI.swift).
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The executable beside the test bundle (SwiftPM builds it with `swift build --build-tests`), else `.build/debug`.
    public static let executable: String? = {
        var candidates: [String] = []
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent().path
        candidates.append(bundleFolder + "/iaplens")
        if let argument = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().path + "/iaplens")
        }
        candidates.append(repositoryRoot + "/.build/debug/iaplens")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public let seconds: Double
    }

    /// A started subprocess whose output goes to files (no pipe can fill up and stall it).
    public final class Running {
        public let process: Process
        let stdoutPath: String
        let stderrPath: String
        let started = Date()

        /// - Parameter executable: another binary than the built one (an installed copy).
        public init(
            _ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil,
            executable: String? = nil
        ) throws {
            guard let executable = executable ?? CLI.executable else {
                throw CLIError("iaplens executable not found; build it with `swift build --build-tests`")
            }
            let scratch = NSTemporaryDirectory() + "iaplens-cli-\(UUID().uuidString.prefix(8))"
            stdoutPath = scratch + ".out"
            stderrPath = scratch + ".err"
            _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        public var pid: Int32 { process.processIdentifier }

        /// Waits for the exit (at most `timeout` seconds, then kills it and throws).
        public func wait(timeout: Double = 300) throws -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning {
                if Date() > deadline {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    throw CLIError("iaplens \(process.arguments ?? []) did not finish within \(timeout) s")
                }
                usleep(2_000)
            }
            process.waitUntilExit()
            let out = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: stdoutPath)
            try? FileManager.default.removeItem(atPath: stderrPath)
            return Result(
                status: process.terminationStatus, stdout: out, stderr: err, seconds: Date().timeIntervalSince(started))
        }
    }

    /// Runs `iaplens <arguments>` to the end.
    public static func run(
        _ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil,
        timeout: Double = 300
    ) throws -> Result {
        try Running(arguments, environment: environment, workingDirectory: workingDirectory).wait(timeout: timeout)
    }
}

public struct CLIError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
