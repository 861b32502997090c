import Testing

@Test func placeholder_IAPReportsTests() { #expect(Bool(true)) }
