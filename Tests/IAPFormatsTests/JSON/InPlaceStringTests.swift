import Testing

@testable import IAPFormats

/// A string left where it lies reads, counts and compares as the same text held as a `String`.
@Suite struct InPlaceStringTests {
    @Test func aSliceIsTheTextItHolds() {
        let document = Array(#"{"signedTransactionInfo":"eyJh.eyJi.c2ln","x":1}"#.utf8)
        let object = FlatJSONObject.parse(document)!
        let position = object.position(of: "signedTransactionInfo", from: 0)!
        let inPlace = object.inPlaceString(at: position)!
        let own = InPlaceString("eyJh.eyJi.c2ln")
        #expect(inPlace.string == "eyJh.eyJi.c2ln")
        #expect(inPlace.utf8Count == 14)
        #expect(inPlace == own)
        #expect(inPlace.withUTF8 { Array($0) } == own.withUTF8 { Array($0) })
        #expect(inPlace != InPlaceString("eyJh.eyJi.c2lm"))
        #expect(object.inPlaceString(at: object.position(of: "x", from: 0)!) == nil, "an integer is not a string")
    }
}
