import Testing
@testable import dynclient

@Suite struct ReconnectBackoffTests {
    @Test(.timeLimit(.minutes(3))) func delaysDoubleFromAQuarterSecondUpToFiveSeconds() {
        var backoff = ReconnectBackoff()
        #expect((0..<8).map { _ in backoff.nextDelayMs() } == [250, 500, 1000, 2000, 4000, 5000, 5000, 5000])
        #expect(backoff.attempt == 8)
    }

    @Test(.timeLimit(.minutes(3))) func resetStartsOverAndManyAttemptsNeverOverflow() {
        var backoff = ReconnectBackoff()
        for _ in 0..<200 { _ = backoff.nextDelayMs() }
        #expect(backoff.nextDelayMs() == 5000)
        backoff.reset()
        #expect(backoff.nextDelayMs() == 250)
    }
}
