import Foundation
import IAPFormats
import IAPPipeline
import IAPSimulator
import IAPTestSupport
import Testing

/// A mixed archive — V1 months then V2, lookups, envelopes, duplicates — gives the same reports
/// whatever order its files are read in.
@Suite struct MixedArchiveOrderTests {
    func snapshot(_ directory: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + relative, isDirectory: &isDirectory)
            if !isDirectory.boolValue {
                files[relative] = try String(contentsOfFile: directory + "/" + relative, encoding: .utf8)
            }
        }
        return files
    }

    @Test func readingTheFilesInReverseOneRunEachGivesIdenticalReports() throws {
        let root = NSTemporaryDirectory() + "iaplens-order-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var options = SimulationOptions()
        options.seed = 11
        options.subscribers = 25
        options.consumableBuyers = 15
        options.refundRings = 2
        options.months = 6
        options.startMonth = "2023-03"
        let manifest = try Simulator(options: options).run(into: root + "/archive")
        #expect(!manifest.v1Months.isEmpty && !manifest.v2Months.isEmpty)
        let folders = ["notifications", "history", "refunds", "orders"].map { root + "/archive/" + $0 }
        let files = try InputDiscovery.discover(folders).files.map(\.path)

        func configuration(_ name: String, inputs: [String]) -> PipelineConfiguration {
            var c = PipelineConfiguration()
            c.inputs = inputs
            c.databasePath = root + "/\(name).sqlite"
            c.reportsDirectory = root + "/\(name)-reports"
            c.bundleId = manifest.bundleId
            c.appAppleId = manifest.appAppleId
            c.rootCertificates = [root + "/archive/" + manifest.rootCertificate]
            c.productsPath = root + "/archive/products.csv"
            c.accountsPath = root + "/archive/accounts.csv"
            return c
        }
        _ = try Pipeline(configuration: configuration("forward", inputs: folders)).run()
        for file in files.reversed() {
            _ = try Pipeline(configuration: configuration("reverse", inputs: [file])).run()
        }
        let forward = try snapshot(root + "/forward-reports")
        let reverse = try snapshot(root + "/reverse-reports")
        #expect(forward.keys.sorted() == reverse.keys.sorted())
        for key in forward.keys.sorted() where forward[key] != reverse[key] {
            Issue.record("\(key) differs between forward and reverse reading")
        }
    }
}
