import Testing

@Test func placeholder_IAPSimulatorTests() { #expect(Bool(true)) }
