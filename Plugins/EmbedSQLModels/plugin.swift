import PackagePlugin

/// Embeds the SQL models of `IAPAnalytics` (its `SQL/<layer>/<name>.sql` files, which stay the source) into the
/// binary as generated Swift, so that `iaplens` is one self-contained file: copied alone to another folder it still
/// analyses (Documentation/Architecture.md "The SQL models").
@main
struct EmbedSQLModels: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "sql").map(\.url).sorted { $0.path() < $1.path() }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSQLModels.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) SQL models into \(target.name)",
                executable: try context.tool(named: "iaplens-embed-sql").url,
                arguments: [target.directoryURL.appending(path: "SQL").path(), output.path()]
                    + inputs.map { $0.path() },
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
