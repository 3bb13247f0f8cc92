import NetProtocol
import Testing
@testable import dynclient

@Suite struct FeedbackReconnectTests {
    @Test(.timeLimit(.minutes(1))) func aNewConnectionClearsWhatTheLastOneEndedWith() {
        var feedback = Feedback()
        feedback.failed("server said bye (shutdown)")
        feedback.expire(atMs: 1_000_000)
        #expect(feedback.result?.text == "server said bye (shutdown)", "an error stays however long")
        feedback.connectionRestored()
        #expect(feedback.result == nil)
    }
}
