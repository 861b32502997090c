import Foundation
import IAPAnalytics
import IAPPipeline
import IAPStore
import IAPTestSupport
import Testing

/// dbt's `unique` and `not_null` tests on every mart, on both engines: the grain the catalog declares
/// (`SQLModel.grain`, the "Grain:" line of each model file) identifies one row, and none of its columns is null.
/// A join that fans out, or a group by that misses a column, fails here before a report shows a doubled row.
@Suite struct MartGrainTests {
    @Test(arguments: StoreKind.allCases)
    func everyMartKeyIsUniqueAndNotNull(_ kind: StoreKind) throws {
        let archive = try SimulatedArchive(seed: 3, subscribers: 40, consumableBuyers: 30, refundRings: 3, months: 8)
        let outputs = try archive.outputs(kind.rawValue)
        let database = try kind.freshDatabase(in: (outputs.database as NSString).deletingLastPathComponent)
        let summary = try Pipeline(configuration: archive.configuration(database: database, reports: outputs.reports))
            .run()
        let store = try StoreLocation(database).open()
        for mart in SQLModelCatalog.marts {
            let rows = summary.analysis.martRowCounts.first { $0.mart == mart.name }?.rows ?? 0
            guard !mart.grain.isEmpty else {
                #expect(rows == 1, "\(mart.name) holds one row")
                continue
            }
            #expect(rows > 0, "\(mart.name) is empty on the simulated archive: the test would prove nothing")
            let key = mart.grain.joined(separator: ", ")
            let repeated = try store.read { connection in
                try connection.integer(
                    "select count(*) from (select \(key) from \(mart.name) group by \(key) having count(*) > 1) as repeated"
                )
            }
            #expect(repeated == 0, "\(mart.name): \(repeated ?? -1) keys (\(key)) appear more than once")
            let nulls = try store.read { connection in
                try connection.integer(
                    "select count(*) from \(mart.name) where "
                        + mart.grain.map { "\($0) is null" }.joined(separator: " or "))
            }
            #expect(nulls == 0, "\(mart.name): \(nulls ?? -1) rows with a null key column")
        }
    }

    @Test func everyMartDeclaresTheGrainItsFileNames() throws {
        let directory = SQLModelFolder.url
        for mart in SQLModelCatalog.marts where !mart.grain.isEmpty {
            let text = try String(contentsOf: directory.appendingPathComponent(mart.relativePath), encoding: .utf8)
            let grainLine = text.split(separator: "\n").prefix(4).joined(separator: " ")
            for column in mart.grain where column != "event_at_ms" && column != "month" {
                #expect(grainLine.contains(column), "\(mart.name)'s Grain: line does not name \(column)")
            }
        }
    }
}
