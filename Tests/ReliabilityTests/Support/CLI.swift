import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `iaplens` executable, run as a subprocess (what a scheduler does).
enum CLI {
    /// The repository root, from this file's path (Tests/ReliabilityTests/Support/CLI.swift).
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The executable beside the test bundle (SwiftPM builds it with `swift build --build-tests`), else `.build/debug`.
    static let executable: String? = {
        var candidates: [String] = []
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent().path
        candidates.append(bundleFolder + "/iaplens")
        if let argument = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().path + "/iaplens")
        }
        candidates.append(repositoryRoot + "/.build/debug/iaplens")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let seconds: Double
    }

    /// A started subprocess whose output goes to files (no pipe can fill up and stall it).
    final class Running {
        let process: Process
        let stdoutPath: String
        let stderrPath: String
        let started = Date()

        init(_ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil) throws {
            guard let executable = CLI.executable else {
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

        var pid: Int32 { process.processIdentifier }

        /// Waits for the exit (at most `timeout` seconds, then kills it and throws).
        func wait(timeout: Double = 300) throws -> Result {
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
            return Result(status: process.terminationStatus, stdout: out, stderr: err, seconds: Date().timeIntervalSince(started))
        }
    }

    /// Runs `iaplens <arguments>` to the end.
    static func run(_ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil, timeout: Double = 300) throws -> Result {
        try Running(arguments, environment: environment, workingDirectory: workingDirectory).wait(timeout: timeout)
    }

    /// Starts `arguments` and kills it with SIGKILL after a delay drawn from `0…window`, until `kills` runs were really
    /// interrupted (at most three times as many attempts). A run that ends before its kill must succeed (`expect`),
    /// and shrinks the window to its own length: later runs have less left to do. `afterEach` runs after every
    /// attempt (an integrity check). - Returns: how many runs the kills interrupted.
    static func killRepeatedly(
        _ arguments: [String], kills: Int, window: Double, random: inout SeededRandom,
        expectSuccess: (Result, String) -> Void, afterEach: (String) throws -> Void = { _ in }
    ) throws -> Int {
        var window = window
        var interrupted = 0
        var attempt = 0
        while interrupted < kills && attempt < kills * 3 {
            attempt += 1
            let delay = Double.random(in: 0.0...window, using: &random)
            let running = try Running(arguments)
            usleep(useconds_t(delay * 1_000_000))
            let wasRunning = running.process.isRunning
            Glibc.kill(running.pid, SIGKILL)
            let result = try running.wait(timeout: 120)
            if wasRunning && running.process.terminationReason == .uncaughtSignal {
                interrupted += 1
            } else {
                expectSuccess(result, "attempt \(attempt)")
                window = max(0.05, result.seconds * 0.9)
            }
            try afterEach("attempt \(attempt) at \(delay) s")
        }
        return interrupted
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
