import Foundation
import IAPAnalytics
import IAPPipeline
import IAPTestSupport
import Testing

/// The configuration file: keys named like the flags, thresholds by their table, and what editors add.
@Suite struct ConfigurationFileTests {
    private func apply(_ bytes: [UInt8]) throws -> PipelineConfiguration {
        let archive = try TestArchive()
        let path = archive.root + "/iaplens.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var configuration = PipelineConfiguration()
        try ConfigurationFile.apply(path, to: &configuration)
        return configuration
    }

    @Test func aFileSavedWithAByteOrderMarkIsRead() throws {
        let configuration = try apply([0xEF, 0xBB, 0xBF] + Array(#"{"bundle-id": "com.example.app", "database": "postgres://u@h/d"}"#.utf8))
        #expect(configuration.bundleId == "com.example.app")
        #expect(configuration.databasePath == "postgres://u@h/d")
    }

    @Test func everyThresholdIsAKeyNamedLikeItsFlag() throws {
        var object: [String] = []
        for (index, threshold) in FlagThreshold.allCases.enumerated() {
            object.append("\"\(threshold.rawValue)\": \(threshold.range.lowerBound + index % 2)")
        }
        let configuration = try apply(Array(("{" + object.joined(separator: ", ") + "}").utf8))
        for (index, threshold) in FlagThreshold.allCases.enumerated() {
            #expect(configuration.thresholds[threshold] == threshold.range.lowerBound + index % 2, "\(threshold)")
        }
        #expect(throws: PipelineError.self) { _ = try apply(Array(#"{"burst-refund": 3}"#.utf8)) }
    }
}
