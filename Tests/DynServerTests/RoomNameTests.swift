import Testing
@testable import dynserver

/// Room names and tokens (docs/PROTOCOL.md, Rooms).
@Suite struct RoomNameTests {
    @Test(.timeLimit(.minutes(1))) func namesAreOneToSixtyFourSafeBytesStartingAlphanumeric() {
        for good in ["main", "lab", "a", "0", "Lab-2_b.c", String(repeating: "z", count: 64)] {
            #expect(RoomName.isValid(good), "\(good)")
        }
        for bad in ["", String(repeating: "z", count: 65), "-a", "_a", ".a", "..", "a b", "a/b", "a?b", "é", "a\u{0}"] {
            #expect(!RoomName.isValid(bad), "\(bad)")
        }
    }

    @Test(.timeLimit(.minutes(1))) func tokensAreThirtyTwoHexDigitsAndDiffer() {
        let tokens = (0..<50).map { _ in RoomName.newToken() }
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(tokens).count == tokens.count)
    }
}
