import Foundation
import GRDB
import IAPAnalytics
import IAPStore
import IAPTestSupport
import Testing

@Suite("SQL model catalog")
struct SQLModelCatalogTests {
    @Test func everyFileIsInTheManifestAndEveryEntryHasAFile() throws {
        // Given the SQL folder
        let directory = SQLModelFolder.url
        var files: Set<String> = []
        for layer in SQLModel.Layer.allCases {
            let folder = directory.appendingPathComponent(layer.rawValue)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".sql") {
                files.insert("\(layer.rawValue)/\(name)")
            }
        }
        // Then
        #expect(files == Set(SQLModelCatalog.models.map(\.relativePath)))
        #expect(Set(SQLModelCatalog.models.map(\.name)).count == SQLModelCatalog.models.count)
    }

    /// The binary carries the models, byte for byte the files (the build plugin writes them in).
    @Test func theModelsBuiltIntoTheBinaryAreTheFiles() throws {
        let directory = SQLModelFolder.url
        #expect(SQLModelSource.embeddedPaths == SQLModelCatalog.models.map(\.relativePath).sorted())
        for model in SQLModelCatalog.models {
            let file = try String(contentsOf: directory.appendingPathComponent(model.relativePath), encoding: .utf8)
            #expect(SQLModelSource.embeddedText(model.relativePath) == file, "\(model.name)")
        }
    }

    @Test func noModelReplacesAStoreTable() throws {
        // Given a migrated store's own tables
        let store = try SQLiteStore.inMemory()
        let tables = try store.database.read { db in
            try String.fetchAll(db, sql: "select name from sqlite_master where type = 'table'")
        }
        // Then no model is named like one (a mart is dropped and recreated on every run)
        #expect(Set(tables).isDisjoint(with: SQLModelCatalog.models.map(\.name)))
    }

    @Test func everyModelStartsWithItsGrain() throws {
        let directory = SQLModelFolder.url
        for model in SQLModelCatalog.models {
            let text = try String(contentsOf: directory.appendingPathComponent(model.relativePath), encoding: .utf8)
            #expect(text.hasPrefix("-- "), "\(model.name) must start with a comment")
            #expect(text.contains("Grain:"), "\(model.name) must name its grain")
        }
    }

    @Test func buildsOnAnEmptyStore() throws {
        let summary = try Analyzer(store: SQLiteStore.inMemory()).analyze(AnalysisOptions(bundleId: "com.example.app"))
        #expect(summary.asOf == nil)
        #expect(summary.months.isEmpty)
        #expect(summary.martRowCounts.map(\.mart) == SQLModelCatalog.marts.map(\.name))
    }

    @Test func everyModelReadsOnlyModelsBuiltBeforeIt() throws {
        // A model that reads a later one would read last run's copy (or fail on a new store): the catalog is the DAG.
        let directory = SQLModelFolder.url
        var built: Set<String> = []
        for model in SQLModelCatalog.models {
            let text = try String(contentsOf: directory.appendingPathComponent(model.relativePath), encoding: .utf8)
            for reference in SQLTemplate.references(in: text) {
                #expect(built.contains(reference), "\(model.name) reads \(reference), which is not built before it")
            }
            built.insert(model.name)
        }
    }

    @Test func everyModelRendersForBothEnginesWithoutTheOtherEnginesSyntax() throws {
        let directory = SQLModelFolder.url
        for model in SQLModelCatalog.models {
            let text = try String(contentsOf: directory.appendingPathComponent(model.relativePath), encoding: .utf8)
            // Engine-specific spellings belong in SQLDialect, reached through template functions.
            for spelling in ["strftime", "group_concat", "string_agg(", "temp.", "main.", "pg_temp", "collate"] {
                let code = text.replacingOccurrences(of: #"\{\{[^}]*\}\}"#, with: "", options: .regularExpression)
                    .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
                #expect(!code.contains { $0.contains(spelling) }, "\(model.name) spells \(spelling) itself")
            }
            for dialect in SQLDialect.allCases {
                let rendered = try SQLTemplate(dialect: dialect, schema: "app").render(text)
                #expect(!rendered.contains("{{"), "\(model.name) on \(dialect)")
            }
        }
        #expect(throws: SQLTemplate.Failure.self) {
            try SQLTemplate(dialect: .sqlite, schema: "main").render("{{ ref('nope') }}")
        }
        #expect(throws: SQLTemplate.Failure.self) {
            try SQLTemplate(dialect: .sqlite, schema: "main").render("{{ nope(x) }}")
        }
    }
}
