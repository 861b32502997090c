import Testing

@Test func placeholder_IAPStoreTests() { #expect(Bool(true)) }
