import Foundation
public import IAPPipeline

extension TestArchive {
    /// A configuration reading this archive's inputs with the trusted test root, for `fixture`'s app.
    public func configuration(
        _ fixture: AppFixture = AppFixture(), _ adjust: (inout PipelineConfiguration) -> Void = { _ in }
    ) throws -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.inputs = [inputs]
        configuration.databasePath = database
        configuration.reportsDirectory = reports
        configuration.bundleId = fixture.bundleId
        configuration.appAppleId = fixture.appAppleId
        configuration.rootCertificates = [try trustedRoot()]
        adjust(&configuration)
        return configuration
    }
}

/// Parses CSV the way a strict consumer of Documentation/Reports.md would (RFC 4180, `\n`, header first).
public enum CSVReader {
    /// Rows as dictionaries keyed by header.
    public static func records(_ text: String) -> [[String: String]] {
        let rows = parse(text)
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { row in
            Dictionary(uniqueKeysWithValues: zip(header, row).map { ($0, $1) })
        }
    }

    /// Raw rows including the header.
    public static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if quoted {
                if character == "\"" {
                    let next = text.index(after: index)
                    if next < text.endIndex && text[next] == "\"" {
                        field.append("\"")
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(field)
                field = ""
            } else if character == "\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.append(character)
            }
            index = text.index(after: index)
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
