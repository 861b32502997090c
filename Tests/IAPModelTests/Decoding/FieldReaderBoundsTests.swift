import IAPFormats
import Testing

@testable import IAPModel

/// Numbers outside what the App Store sends are errors that name the field and the range, in the strict
/// (V2) and lenient (V1) readers alike; in-range values pass unchanged.
@Suite struct FieldReaderBoundsTests {
    private func reader(_ json: String) throws -> FieldReader {
        try FieldReader(value: try JSONParser.parse(json), path: "t")
    }

    @Test(arguments: ["49.9", "-1", "9223372036854775807", "1000000000001", "1e300", "\"100\""])
    func pricesOutsideTheBoundsAreRefused(text: String) throws {
        let reader = try reader("{\"price\":\(text)}")
        #expect(throws: ModelDecodingError.self) {
            try reader.count("price", in: AppStoreBounds.priceMilli, "a price in milliunits")
        }
    }

    @Test func anOutOfBoundsErrorSaysSoAndNamesTheRange() throws {
        let reader = try reader("{\"quantity\":\"600000000000000\"}")
        do {
            _ = try reader.count("quantity", in: AppStoreBounds.quantity, "a quantity", lenient: true)
            Issue.record("accepted an impossible quantity")
        } catch {
            #expect(error.isOutOfBounds)
            #expect(
                error.description
                    == "Field `t.quantity` is \"600000000000000\", outside what the App Store sends for a quantity (whole numbers 1…100)."
            )
        }
    }

    @Test func valuesInsideTheBoundsPassUnchanged() throws {
        let reader = try reader(
            "{\"price\":1000000000000,\"quantity\":\" 2 \",\"pct\":0,\"d\":1199145600000,\"f\":1700000000000.7}")
        #expect(try reader.count("price", in: AppStoreBounds.priceMilli, "p") == 1_000_000_000_000)
        #expect(try reader.count("quantity", in: AppStoreBounds.quantity, "q", lenient: true) == 2)
        #expect(try reader.count("pct", in: AppStoreBounds.revocationPercentage, "r") == 0)
        #expect(try reader.date("d") == 1_199_145_600_000)
        #expect(try reader.date("f") == 1_700_000_000_000)  // StoreKit Testing's fractional milliseconds
        #expect(try reader.count("absent", in: AppStoreBounds.quantity, "q") == nil)
    }

    @Test(arguments: ["4102444800000", "1199145599999", "-5", "\"1e20\""])
    func datesOutsideTheAppStoresYearsAreRefused(text: String) throws {
        let reader = try reader("{\"d\":\(text)}")
        #expect(throws: ModelDecodingError.self) { try reader.date("d", lenient: true) }
    }

    @Test func aStrictReaderRefusesV1sStrings() throws {
        let reader = try reader("{\"quantity\":\"1\"}")
        #expect(throws: ModelDecodingError.self) { try reader.count("quantity", in: AppStoreBounds.quantity, "q") }
    }
}
