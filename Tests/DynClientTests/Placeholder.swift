import Testing
@testable import dynclient

@Test func placeholder() { #expect(1 + 1 == 2) }
