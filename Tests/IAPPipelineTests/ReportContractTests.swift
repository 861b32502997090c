import Foundation
import IAPAnalytics
import IAPFormats
import IAPPipeline
import IAPTestSupport
import Testing

/// End to end through `Pipeline.run`, on each store engine: the files and headers of Documentation/Reports.md, determinism,
/// split invariance.
@Suite struct ReportContractTests {
    /// Runs the pipeline on `archive` with a store of `kind` (the same store on every call for that archive).
    func run(_ archive: TestArchive, _ kind: StoreKind) throws -> RunSummary {
        let database = try database(of: archive, kind)
        return try Pipeline(
            configuration: try archive.configuration {
                $0.accountsPath = archive.inputs + "/accounts.csv.txt"
                $0.databasePath = database
            }
        ).run()
    }

    /// The SQLite file of the archive, or a PostgreSQL schema named after it (created on first use).
    func database(of archive: TestArchive, _ kind: StoreKind) throws -> String {
        switch kind {
        case .sqlite: return archive.database
        case .postgres:
            let marker = archive.root + "/postgres-url"
            if let url = try? String(contentsOfFile: marker, encoding: .utf8) { return url }
            let url = try TestPostgres.freshStore()
            try url.write(toFile: marker, atomically: true, encoding: .utf8)
            return url
        }
    }

    func snapshot(_ directory: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory)
            if !isDirectory.boolValue {
                files[relative] = try String(contentsOfFile: directory + "/" + relative, encoding: .utf8)
            }
        }
        return files
    }

    @Test(arguments: StoreKind.allCases)
    func everyMonthFolderHoldsEveryContractFileWithItsHeader(_ kind: StoreKind) throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try run(archive, kind)
        let files = try snapshot(archive.reports)
        #expect(files["index.md"] != nil)
        let months = Set(
            files.keys.compactMap { key -> String? in
                let parts = key.split(separator: "/")
                return parts.count == 2 && CalendarMonth(String(parts[0])) != nil ? String(parts[0]) : nil
            })
        #expect(months.contains("2023-10"))
        for month in months {
            for file in ReportColumns.files {
                let text = try #require(files["\(month)/\(file.name)"], "\(month)/\(file.name) missing")
                #expect(CSVReader.parse(text).first == file.columns, "\(month)/\(file.name) header")
            }
            #expect(files["\(month)/report.md"] != nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theRingAccountIsFlaggedAndTheLookupOnlyRefundsAreCounted(_ kind: StoreKind) throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try run(archive, kind)
        let flagged = CSVReader.records(try archive.report("2023-11/flagged_accounts.csv"))
        let ring = try #require(flagged.first { $0["account_id"] == "acct-ring-1" })
        #expect(ring["rules"]?.contains("repeat_refunds") == true)
        #expect(ring["rules"]?.contains("consumable_refund_burst") == true)
        #expect(ring["evidence"] == "c0;c1;c2")
        let refunds = CSVReader.records(try archive.report("2023-11/refunds.csv"))
        #expect(refunds.map { $0["refunds"] } == ["3"])
        #expect(refunds.first?["from_notifications"] == "1")
        #expect(refunds.first?["from_lookups_only"] == "2")
    }

    @Test(arguments: StoreKind.allCases)
    func rerunningTheSameDataGivesByteIdenticalReports(_ kind: StoreKind) throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try run(archive, kind)
        let first = try snapshot(archive.reports)
        try FileManager.default.removeItem(atPath: archive.reports)
        _ = try run(archive, kind)
        #expect(try snapshot(archive.reports) == first)
    }

    @Test(arguments: StoreKind.allCases)
    func dataArrivingInSeveralRunsGivesTheSameReportsAsOneRun(_ kind: StoreKind) throws {
        let whole = try TestArchive()
        try SmallWorld.write(into: whole)
        _ = try run(whole, kind)

        let split = try TestArchive()
        let names = try SmallWorld.files().map(\.0)
        for name in names.reversed() {
            try SmallWorld.write(into: split, only: [name])
            if name != "accounts.csv.txt" { _ = try run(split, kind) }
        }
        _ = try run(split, kind)
        #expect(try snapshot(split.reports) == (try snapshot(whole.reports)))
    }
}
