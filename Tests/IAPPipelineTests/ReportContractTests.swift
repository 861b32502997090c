import Foundation
import IAPAnalytics
import IAPPipeline
import IAPTestSupport
import Testing

/// End to end through `Pipeline.run`: the files and headers of REPORTS.md, determinism, split invariance.
@Suite struct ReportContractTests {
    func run(_ archive: TestArchive) throws -> RunSummary {
        try Pipeline(configuration: try archive.configuration { $0.accountsPath = archive.inputs + "/accounts.csv.txt" }).run()
    }

    func snapshot(_ directory: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory)
            if !isDirectory.boolValue { files[relative] = try String(contentsOfFile: directory + "/" + relative, encoding: .utf8) }
        }
        return files
    }

    @Test func everyMonthFolderHoldsEveryContractFileWithItsHeader() throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try run(archive)
        let files = try snapshot(archive.reports)
        #expect(files["index.md"] != nil)
        let months = Set(files.keys.compactMap { $0.split(separator: "/").count == 2 ? String($0.split(separator: "/")[0]) : nil })
        #expect(months.contains("2023-10"))
        for month in months {
            for (name, columns) in ReportColumns.files {
                let text = try #require(files["\(month)/\(name)"], "\(month)/\(name) missing")
                #expect(CSVReader.parse(text).first == columns, "\(month)/\(name) header")
            }
            #expect(files["\(month)/report.md"] != nil)
        }
    }

    @Test func theRingAccountIsFlaggedAndTheLookupOnlyRefundsAreCounted() throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try run(archive)
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

    @Test func rerunningTheSameDataGivesByteIdenticalReports() throws {
        let archive = try TestArchive()
        try SmallWorld.write(into: archive)
        _ = try run(archive)
        let first = try snapshot(archive.reports)
        try FileManager.default.removeItem(atPath: archive.reports)
        _ = try run(archive)
        #expect(try snapshot(archive.reports) == first)
    }

    @Test func dataArrivingInSeveralRunsGivesTheSameReportsAsOneRun() throws {
        let whole = try TestArchive()
        try SmallWorld.write(into: whole)
        _ = try run(whole)

        let split = try TestArchive()
        let names = try SmallWorld.files().map(\.0)
        for name in names.reversed() {
            try SmallWorld.write(into: split, only: [name])
            if name != "accounts.csv.txt" { _ = try run(split) }
        }
        _ = try run(split)
        #expect(try snapshot(split.reports) == (try snapshot(whole.reports)))
    }
}
