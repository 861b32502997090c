import Testing

@Test func placeholder_IAPVerificationTests() { #expect(Bool(true)) }
