import NetProtocol
import Testing
@testable import dynclient

@Suite struct FeedbackTests {
    @Test(.timeLimit(.minutes(3))) func anErrorStaysUntilTheNextCommandASuccessForAWhile() {
        var feedback = Feedback()
        feedback.failed("scene: forbidden")
        feedback.expire(atMs: 1_000_000)
        #expect(feedback.result?.text == "scene: forbidden")
        feedback.commandSent()
        #expect(feedback.result == nil)
        feedback.succeeded("loaded snap", atMs: 1000)
        feedback.commandSent()
        #expect(feedback.result?.text == "loaded snap")
        feedback.expire(atMs: 1000 + Feedback.okMs - 1)
        #expect(feedback.result != nil)
        feedback.expire(atMs: 1000 + Feedback.okMs)
        #expect(feedback.result == nil)
    }

    @Test(.timeLimit(.minutes(3))) func ringHighlightNoticesAndFlashesExpire() {
        var feedback = Feedback()
        feedback.tapLanded(at: Point(10, 20), pushed: 3, atMs: 0)
        feedback.notice("bob loaded snap", atMs: 0)
        feedback.contact(at: Point(1, 1), atMs: 0)
        #expect(feedback.ring?.point == Point(10, 20))
        #expect(feedback.highlight?.body == 3)
        feedback.expire(atMs: Feedback.flashMs)
        #expect(feedback.flashes.isEmpty)
        #expect(feedback.ring != nil)
        feedback.expire(atMs: Feedback.ringMs)
        #expect(feedback.ring == nil && feedback.highlight == nil)
        #expect(feedback.notices.map(\.text) == ["bob loaded snap"])
        feedback.expire(atMs: Feedback.noticeMs)
        #expect(feedback.notices.isEmpty)
    }

    @Test(.timeLimit(.minutes(3))) func noticesKeepTheNewestFew() {
        var feedback = Feedback()
        for index in 0..<10 { feedback.notice("n\(index)", atMs: 0) }
        #expect(feedback.notices.map(\.text) == ["n6", "n7", "n8", "n9"])
    }
}
