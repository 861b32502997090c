/// An out-of-range simulation option, described in one line that names the option and the allowed range.
public struct SimulationOptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option's command-line spelling, such as `--subscribers`.
    public let option: String
    /// The one-line message, for example `--subscribers must be between 0 and 5000000 (got -3).`
    public let message: String

    /// Creates an error for `option` with a full-sentence `message`.
    public init(option: String, message: String) {
        self.option = option
        self.message = message
    }

    /// The one-line message.
    public var description: String { message }
}
