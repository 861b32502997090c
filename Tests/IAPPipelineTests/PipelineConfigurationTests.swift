import Foundation
import IAPPipeline
import Testing

/// What `validate` refuses before a run opens the store, each refusal a sentence that says which side of a bound the
/// value fell on and why that side is one.
@Suite struct PipelineConfigurationTests {
    private func refusal(asOf: Int64) -> String? {
        var configuration = PipelineConfiguration()
        configuration.bundleId = "com.example.app"
        configuration.asOf = asOf
        do {
            try configuration.validate(requireInputs: false)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func anAsOfTimeBeforeTheAppStoreOrInTheFutureIsRefusedSayingWhichAndWhy() throws {
        let epoch = try #require(refusal(asOf: 0))
        #expect(epoch.contains("1970-01-01T00:00:00"), "\(epoch)")
        #expect(epoch.contains("sold nothing before 2008"), "\(epoch)")
        #expect(!epoch.contains("future"), "a time in the past is not explained by the future: \(epoch)")
        let nextYear = Int64(Date().timeIntervalSince1970 * 1000) + 366 * 86_400_000
        let future = try #require(refusal(asOf: nextYear))
        #expect(future.contains("as of the future would count retries as lost"), "\(future)")
        #expect(refusal(asOf: 1_767_225_600_000) == nil, "2026-01-01 is a time a report can be made as of")
    }
}
