import Testing

@Test func placeholder_iaplensTests() { #expect(Bool(true)) }
