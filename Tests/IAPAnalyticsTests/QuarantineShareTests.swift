import IAPAnalytics
import Testing

/// The quarantine share's test and sentence: whole percent rounded down, and a share under 1 % never reads "0 %".
@Suite struct QuarantineShareTests {
    @Test func theShareReadsAsWholePercentAndNeverAsZeroWhenSomethingWasQuarantined() {
        let some = QuarantineShare(documents: 24_484, byReason: [("bad_json", 84), ("wrong_app", 140)])
        #expect(some.exceeds(0) && !some.exceeds(1))
        #expect(
            some.warning.hasPrefix(
                "under 1 % of the documents read (224 of 24484) were quarantined, most for wrong_app (140): "))
        let most = QuarantineShare(documents: 7, byReason: [("unknown_shape", 2), ("bad_json", 1)])
        #expect(most.percent == 42 && most.exceeds(42) && !most.exceeds(43), "42.9 % is over 42")
        #expect(
            most.warning.hasPrefix("42 % of the documents read (3 of 7) were quarantined, most for unknown_shape (2): ")
        )
        let none = QuarantineShare(documents: 5, byReason: [])
        #expect(!none.exceeds(0))
        #expect(none.warning.hasPrefix("0 % of the documents read (0 of 5) were quarantined."))
    }
}
