import Testing

@Test func placeholder_IAPFormatsTests() { #expect(Bool(true)) }
