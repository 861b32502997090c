import Testing

@Test func placeholder_IAPSigningTests() { #expect(Bool(true)) }
