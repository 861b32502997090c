import Foundation
import IAPFormats
import Testing

/// The app's consumption facts (`consumption --facts`): Apple is answered only from a file read whole, so a bad row
/// refuses the file, naming each line and what is wrong with it; a later row for a transaction corrects an earlier one.
@Suite struct ConsumptionFactsFileTests {
    private func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "iaplens-facts-\(UUID().uuidString.prefix(8)).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let header =
        "transaction_id,customer_consented,delivery_status,consumption_percentage,sample_content_provided"

    @Test func aGoodFileIsReadAndAnEmptyPercentageIsUnknown() throws {
        let path = try write(
            Self.header + "\n1001,TRUE,DELIVERED,100000,false\n1002,false,UNDELIVERED_OTHER,,true\n\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rows = try ReferenceFiles.readConsumptionFacts(at: path)
        #expect(rows.map(\.transactionId) == ["1001", "1002"])
        #expect(rows[0].customerConsented && rows[0].consumptionPercentage == 100_000 && !rows[0].sampleContentProvided)
        #expect(
            rows[1].consumptionPercentage == nil && rows[1].deliveryStatus == "UNDELIVERED_OTHER" && rows[1].line == 3)
    }

    @Test func everyBadRowIsNamedWithItsLineAndTheFileIsRefused() throws {
        let path = try write(
            Self.header + "\n"
                + "1001,true,DELIVERED,100000,false\n"  // line 2: good
                + "1002,true,SHIPPED,50000,false\n"  // line 3: not one of Apple's statuses
                + "1003,true,DELIVERED,100001,false\n"  // line 4: past 100 %
                + "1004,yes,DELIVERED,12.5,maybe\n"  // line 5: three problems in one row
                + ",true,DELIVERED,0,false\n")  // line 6: no transaction
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ReferenceFiles.readConsumptionFacts(at: path)
            Issue.record("a facts file with bad rows was read")
        } catch {
            #expect(error.problems.map(\.line) == [3, 4, 5, 6])
            #expect(error.problems[0].message.contains("delivery_status \"SHIPPED\" is not one of DELIVERED"))
            #expect(error.problems[1].message.contains("consumption_percentage \"100001\" is not a whole number"))
            let third = error.problems[2].message
            #expect(
                third.contains("customer_consented \"yes\"") && third.contains("\"12.5\"")
                    && third.contains("sample_content_provided \"maybe\""), "\(third)")
            #expect(error.problems[3].message.contains("transaction_id is empty"))
        }
    }
}
