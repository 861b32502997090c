import Testing

@Test func placeholder_IAPPipelineTests() { #expect(Bool(true)) }
