import Testing

@Test func placeholder_IAPAnalyticsTests() { #expect(Bool(true)) }
