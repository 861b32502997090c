import Foundation

// Writes `EmbeddedSQLModels.swift`: every SQL model's text by its path under `SQL/` (`staging/stg_….sql`), as
// Swift raw string literals that hold the file byte for byte. Run by the EmbedSQLModels build plugin.
//
// Usage: iaplens-embed-sql <SQL folder> <output .swift> <model .sql>...

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: iaplens-embed-sql <SQL folder> <output.swift> <file.sql>...\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL.path + "/"
var source = """
    // Generated at build time by iaplens-embed-sql from Sources/IAPAnalytics/SQL (the source of the models).

    /// The text of every SQL model, by its path under `SQL/`.
    enum EmbeddedSQLModels {
        static let texts: [String: String] = [

    """
for path in arguments.dropFirst(3).sorted() {
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    guard standardized.hasPrefix(root), let text = try? String(contentsOfFile: standardized, encoding: .utf8) else {
        FileHandle.standardError.write(Data("iaplens-embed-sql: cannot read \(path) under \(root)\n".utf8))
        exit(1)
    }
    // Enough `#` that nothing in the text ends the literal or starts an escape.
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    let relative = String(standardized.dropFirst(root.count))
    source += "        \"\(relative)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
do {
    try source.write(toFile: arguments[2], atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("iaplens-embed-sql: cannot write \(arguments[2]): \(error)\n".utf8))
    exit(1)
}
