import Foundation
import GRDB
import IAPAnalytics
import IAPStore
import Testing

@Suite("SQL model catalog")
struct SQLModelCatalogTests {
    @Test func everyFileIsInTheManifestAndEveryEntryHasAFile() throws {
        // Given the SQL folder
        let directory = try SQLModelDirectory.locate()
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
        let directory = try SQLModelDirectory.locate()
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
}
