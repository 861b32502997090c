import Testing

@Test func placeholder_IAPModelTests() { #expect(Bool(true)) }
