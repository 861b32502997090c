/// Problems found in a reference file (`products.csv`, `accounts.csv`): all bad rows at once, up to 20 listed.
public struct ReferenceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One problem at one line.
    public struct Problem: Sendable, Equatable {
        /// 1-based line (the header is line 1).
        public let line: Int
        /// What is wrong, as a sentence.
        public let message: String

        /// Creates a problem.
        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    /// Most problems listed in one error.
    public static let maxListed = 20

    /// The file's path as given.
    public let file: String
    /// The first ``maxListed`` problems, in line order.
    public let problems: [Problem]
    /// How many problems were found in all.
    public let totalProblems: Int

    /// Creates an error from all problems found (only the first ``maxListed`` are kept).
    public init(file: String, problems: [Problem]) {
        self.file = file
        self.problems = Array(problems.prefix(Self.maxListed))
        self.totalProblems = problems.count
    }

    /// Line of the first problem.
    public var line: Int { problems.first?.line ?? 0 }

    /// Message of the first problem.
    public var message: String { problems.first?.message ?? "" }

    /// The error as sentences that each read alone, one per log line: `"products.csv line 7: …"`; with several
    /// problems, a first line that counts them, then one line per problem listed, each naming the file and line.
    /// (A log line never holds a newline: the command line escapes one, so a list inside one message read `\u{a}`.)
    public var lines: [String] {
        let listed = problems.map(Self.located(in: file))
        if totalProblems == 1 { return listed }
        var lines = ["\(file) has \(totalProblems) problems; fix them and run again:"] + listed
        if totalProblems > problems.count { lines.append("\(file): … and \(totalProblems - problems.count) more.") }
        return lines
    }

    /// ``lines``, one per line.
    public var description: String { lines.joined(separator: "\n") }

    /// `"products.csv line 7: …"`; a problem of the whole file (line 0) names the file alone.
    private static func located(in file: String) -> (Problem) -> String {
        { problem in
            problem.line > 0 ? "\(file) line \(problem.line): \(problem.message)" : "\(file): \(problem.message)"
        }
    }
}
