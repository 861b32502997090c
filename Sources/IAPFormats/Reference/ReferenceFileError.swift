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

    /// `"products.csv line 7: …"`, or one line per problem when there are several.
    public var description: String {
        if totalProblems == 1 { return "\(file) line \(line): \(message)" }
        var text = "\(file) has \(totalProblems) problems; fix them and run again:"
        for problem in problems { text += "\n  line \(problem.line): \(problem.message)" }
        if totalProblems > problems.count { text += "\n  … and \(totalProblems - problems.count) more." }
        return text
    }
}
