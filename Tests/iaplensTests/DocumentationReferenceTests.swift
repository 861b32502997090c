import Foundation
import Testing

/// Every `Documentation/<File>.md` that code, tests or the README cite exists, and the section they name is there:
/// `Documentation/X.md#anchor` (a heading whose GitHub anchor it is) or `Documentation/X.md "Heading words"` (a
/// heading containing the words, or a defined term in bold that starts with them). A renamed heading fails here, not
/// in a reader's hands.
@Suite struct DocumentationReferenceTests {
    static let repository = CLITests.repository

    struct Reference: CustomStringConvertible {
        let file: String
        let section: String?
        let isAnchor: Bool
        let citedIn: String
        var description: String {
            "\(citedIn): Documentation/\(file)" + (section.map { isAnchor ? "#\($0)" : " \"\($0)\"" } ?? "")
        }
    }

    static func references() throws -> [Reference] {
        var found: [Reference] = []
        // `Documentation/X.md "Section"`, also with a comma before the quote; inside Documentation/ itself, a
        // document names its neighbours without the folder (`Performance.md "Section"`).
        let section = #"(?:#([a-z0-9_-]+)|,?\s+"([^"\n]+)")"#
        let pattern = try NSRegularExpression(pattern: #"Documentation/([A-Za-z]+\.md)"# + section + "?")
        let neighbour = try NSRegularExpression(pattern: #"(?<![/\w])((?!README)[A-Z][A-Za-z]+\.md)"# + section)
        var paths = ["README.md"]
        for folder in ["Sources", "Tests", "Documentation", "scripts"] {
            let enumerator = FileManager.default.enumerator(atPath: repository.appendingPathComponent(folder).path)
            while let name = enumerator?.nextObject() as? String {
                if [".swift", ".sql", ".md", ".c", ".h", ".sh"].contains(where: name.hasSuffix) {
                    paths.append(folder + "/" + name)
                }
            }
        }
        for path in paths where !path.hasSuffix("DocumentationReferenceTests.swift") {
            // Comments wrap: a quoted section may continue on the next comment line (`///`, `--`, a C comment's
            // ` *`, a script's `#`).
            let comment =
                path.hasSuffix(".sh") ? "#" : path.hasSuffix(".c") || path.hasSuffix(".h") ? #"\*|//"# : "///|//|--"
            let text = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
                .replacingOccurrences(of: #"\n\s*("# + comment + #")\s*"#, with: " ", options: .regularExpression)
            let range = NSRange(text.startIndex..., in: text)
            let matches =
                pattern.matches(in: text, range: range)
                + (path.hasPrefix("Documentation/") ? neighbour.matches(in: text, range: range) : [])
            for match in matches {
                let group = { (index: Int) -> String? in
                    Range(match.range(at: index), in: text).map { String(text[$0]) }
                }
                let anchor = group(2)
                found.append(
                    Reference(file: group(1) ?? "", section: anchor ?? group(3), isAnchor: anchor != nil, citedIn: path)
                )
            }
        }
        return found
    }

    /// GitHub's anchor of a heading: lower-cased, punctuation but `-` and `_` dropped, spaces to `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    @Test func everyCitedDocumentAndSectionExists() throws {
        let references = try Self.references()
        #expect(references.count > 80, "the scan found the references")
        for reference in references {
            let url = Self.repository.appendingPathComponent("Documentation/" + reference.file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("\(reference): no such document")
                continue
            }
            guard let section = reference.section else { continue }
            let headings = text.split(separator: "\n").filter { $0.hasPrefix("#") }
                .map { $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
            // A defined term counts as a section too: `**Account** of a transaction` in a list of definitions.
            let terms = text.components(separatedBy: "**").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            let bare = { (text: String) in text.replacingOccurrences(of: "`", with: "") }
            let found =
                reference.isAnchor
                ? headings.contains { Self.anchor($0) == section }
                : headings.contains { bare($0).contains(bare(section)) }
                    || terms.contains { bare($0).hasPrefix(bare(section)) }
            #expect(found, "\(reference): no such section")
        }
    }

    @Test func aMissingSectionIsCaught() {
        #expect(
            Self.anchor("`apple_reconciliation.csv`: the archive against Apple's own books")
                == "apple_reconciliationcsv-the-archive-against-apples-own-books")
    }
}
