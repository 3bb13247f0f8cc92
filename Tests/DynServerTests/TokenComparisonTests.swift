import Testing
@testable import dynserver

/// Tokens compared in constant time (docs/PROTOCOL.md, Security): equal only when every byte and the
/// length agree, never for nil.
@Suite struct TokenComparisonTests {
    @Test(.timeLimit(.minutes(1))) func onlyTheSameTokenMatches() {
        #expect(TokenComparison.matches("s3cret", "s3cret"))
        #expect(!TokenComparison.matches("s3creT", "s3cret"))
        #expect(!TokenComparison.matches("s3cre", "s3cret"), "a prefix")
        #expect(!TokenComparison.matches("s3cretX", "s3cret"), "longer")
        #expect(!TokenComparison.matches("", "s3cret"))
        #expect(!TokenComparison.matches(nil, "s3cret"))
        #expect(!TokenComparison.matches("s3cret", nil))
        #expect(!TokenComparison.matches(nil, nil))
        // 256 characters apart in length: the length byte alone would wrap to equal.
        #expect(!TokenComparison.matches(String(repeating: "a", count: 256), ""))
    }
}
