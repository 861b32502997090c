import Foundation

/// Where the SQL models' text comes from: compiled into the binary at build time from the `SQL/<layer>/<name>.sql`
/// files (``EmbeddedSQLModels``, written by the EmbedSQLModels build plugin), so a copied `iaplens` needs nothing
/// beside it; or, when `IAPLENS_SQL_DIR` names a folder, from that folder's files (trying an edited model without
/// a rebuild).
public enum SQLModelSource {
    /// Environment variable naming a folder of `.sql` files to use instead of the embedded ones.
    public static let environmentVariable = "IAPLENS_SQL_DIR"

    /// The text of every model in the catalog, in build order.
    /// - Throws: ``AnalysisError/sqlModelMissing(name:path:)`` for a model without text (a catalog entry whose
    ///   file was not built in, or is missing from `IAPLENS_SQL_DIR`).
    public static func load() throws(AnalysisError) -> [(model: SQLModel, sql: String)] {
        if let folder = ProcessInfo.processInfo.environment[environmentVariable], !folder.isEmpty {
            return try load(from: URL(fileURLWithPath: folder, isDirectory: true))
        }
        var loaded: [(model: SQLModel, sql: String)] = []
        for model in SQLModelCatalog.models {
            guard let sql = EmbeddedSQLModels.texts[model.relativePath] else {
                throw .sqlModelMissing(name: model.name, path: "(built into iaplens) SQL/" + model.relativePath)
            }
            loaded.append((model, sql))
        }
        return loaded
    }

    /// The paths under `SQL/` of every model built into the binary.
    public static var embeddedPaths: [String] { EmbeddedSQLModels.texts.keys.sorted() }

    /// The built-in text of one model (`staging/stg_….sql`), if any.
    public static func embeddedText(_ relativePath: String) -> String? { EmbeddedSQLModels.texts[relativePath] }

    /// Reads the text of every model in the catalog from a folder laid out as `SQL/`.
    static func load(from directory: URL) throws(AnalysisError) -> [(model: SQLModel, sql: String)] {
        var loaded: [(model: SQLModel, sql: String)] = []
        for model in SQLModelCatalog.models {
            let url = directory.appendingPathComponent(model.relativePath)
            guard let sql = try? String(contentsOf: url, encoding: .utf8) else {
                throw .sqlModelMissing(name: model.name, path: url.path + " (\(environmentVariable))")
            }
            loaded.append((model, sql))
        }
        return loaded
    }
}
