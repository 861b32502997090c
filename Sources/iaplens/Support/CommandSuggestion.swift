import IAPPipeline

/// A command name one or two letters off (`iaplens reprot`): ArgumentParser says only "Unexpected argument", so the
/// entry point names the command it most likely meant.
enum CommandSuggestion {
    /// The sentence for `arguments` (without the program's name), or nil when the first one is a command, an option,
    /// or close to no command.
    static func message(for arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) else { return nil }
        guard let command = ConfigurationEnvironment.closest(to: first.lowercased(), among: commands, within: 2) else {
            return nil
        }
        return "Error: Unknown command '\(first)'. Did you mean '\(command)'?\n"
            + "Usage: iaplens <subcommand>\n  See 'iaplens --help' for more information."
    }
}
