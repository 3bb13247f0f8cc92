import Testing
@testable import dynserver

@Test func placeholder() { #expect(1 + 1 == 2) }
