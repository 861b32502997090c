import Foundation

/// Finds the folder of `.sql` model files without tripping SwiftPM's `Bundle.module` accessor, which
/// stops the process when the resource bundle is neither next to the executable nor at the build path.
public enum SQLModelDirectory {
    /// Environment variable naming the SQL folder explicitly (packaging, tests).
    public static let environmentVariable = "IAPLENS_SQL_DIR"
    /// The resource bundle SwiftPM builds for this target.
    static let bundleName = "iaplens_IAPAnalytics.resources"

    /// The SQL folder: `$IAPLENS_SQL_DIR`, else `<executable dir>/iaplens_IAPAnalytics.resources/SQL`, else
    /// the SwiftPM resource bundle when it exists.
    /// - Throws: ``AnalysisError/sqlResourcesMissing(searched:)`` naming every place looked at.
    public static func locate() throws(AnalysisError) -> URL {
        var searched: [String] = []
        let fileManager = FileManager.default
        func isModelFolder(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            let staging = url.appendingPathComponent("staging").path
            return fileManager.fileExists(atPath: staging, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if let explicit = ProcessInfo.processInfo.environment[environmentVariable], !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit, isDirectory: true)
            if isModelFolder(url) { return url }
            searched.append("\(explicit) (\(environmentVariable))")
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let url = executable.deletingLastPathComponent()
                .appendingPathComponent(bundleName).appendingPathComponent("SQL")
            if isModelFolder(url) { return url }
            searched.append(url.path)
        }
        // `Bundle.module` looks at `Bundle.main.bundleURL/<bundle>` first; only when that exists is it
        // safe to call (its other candidate is the build folder, which a copied binary does not have).
        let mainCandidate = Bundle.main.bundleURL.appendingPathComponent(bundleName)
        if fileManager.fileExists(atPath: mainCandidate.path) {
            if let url = Bundle.module.url(forResource: "SQL", withExtension: nil), isModelFolder(url) {
                return url
            }
        }
        searched.append(mainCandidate.appendingPathComponent("SQL").path)
        throw .sqlResourcesMissing(searched: searched)
    }

    /// Reads the text of every model in the catalog.
    static func load(from directory: URL) throws(AnalysisError) -> [(model: SQLModel, sql: String)] {
        var loaded: [(model: SQLModel, sql: String)] = []
        for model in SQLModelCatalog.models {
            let url = directory.appendingPathComponent(model.relativePath)
            guard let sql = try? String(contentsOf: url, encoding: .utf8) else {
                throw .sqlModelMissing(name: model.name, path: url.path)
            }
            loaded.append((model, sql))
        }
        return loaded
    }
}
