import Testing
@testable import Dynamics

/// A world whose items all left it for good pauses (docs/ENGINE.md, "Departed items"); one thrown past an
/// edge that falls back does not.
@Suite(.timeLimit(.minutes(1))) struct DepartedRestTests {
    /// An 800 x 600 world with gravity down and the margin a room uses.
    private func world() -> DynamicAnimator {
        let a = DynamicAnimator(width: 800, height: 600)
        a.departedMargin = 100
        _ = a.add(GravityBehavior(direction: Vec2(0, 1)))
        return a
    }

    /// Steps until the animator pauses (at most `cap` steps); the steps taken.
    private func stepsUntilPaused(_ a: DynamicAnimator, cap: Int, _ each: () -> Void = {}) -> Int {
        var n = 0
        while a.isRunning && n < cap { a.step(); each(); n += 1 }
        return n
    }

    @Test func anItemThatFellOutPausesTheWorldJustPastTheMargin() throws {
        let a = world()
        let id = try a.addItem(width: 100, height: 100, center: Vec2(400, 500))
        _ = stepsUntilPaused(a, cap: 600)
        #expect(!a.isRunning, "paused")
        // Its whole shape (reach 70.7 pt) more than 100 pt below the 600 pt edge, paused within one step of it.
        let y = a.center(id).y
        #expect(y > 600 + 100 + 70.7 && y < 600 + 100 + 70.7 + 30, "paused at \(y)")
        #expect(a.item(id)!.velocity.y > 0, "it keeps its velocity")
    }

    @Test func withoutAMarginItFallsForever() throws {
        let a = world()
        a.departedMargin = nil
        _ = try a.addItem(width: 100, height: 100, center: Vec2(400, 500))
        #expect(stepsUntilPaused(a, cap: 600) == 600 && a.isRunning)
    }

    @Test func anItemThrownPastTheTopComesBackBeforeTheWorldRests() throws {
        let a = world()
        let id = try a.addItem(width: 20, height: 20, center: Vec2(400, 100), velocity: Vec2(0, -1500))
        var highest = 100.0
        _ = stepsUntilPaused(a, cap: 1200) { highest = min(highest, a.center(id).y) }
        #expect(highest < -900, "it went \(-highest) pt above the world")
        #expect(!a.isRunning && a.center(id).y > 700, "it fell back through the world and out below: \(a.center(id))")
    }

    @Test func anItemHeldByAnAttachmentNeverDeparts() throws {
        let a = world()
        // A 600 pt pendulum let go level with its anchor, past the right edge: it swings down to 300 pt below
        // the world, falling away from it there, and back.
        let id = try a.addItem(width: 20, height: 20, center: Vec2(1000, 300))
        _ = try a.add(AttachmentBehavior(item: id, anchor: Vec2(400, 300)))
        var lowest = 0.0
        #expect(stepsUntilPaused(a, cap: 300) { lowest = max(lowest, a.center(id).y) } == 300 && a.isRunning)
        #expect(lowest > 850, "it swung \(lowest - 600) pt below the world")
    }

    @Test func aMutationResumesTheWorldAndDepartedItemsMoveOn() throws {
        let a = world()
        let gone = try a.addItem(width: 100, height: 100, center: Vec2(400, 500))
        _ = stepsUntilPaused(a, cap: 600)
        let pausedAt = a.center(gone).y
        _ = try a.addItem(width: 20, height: 20, center: Vec2(100, 100))
        #expect(a.isRunning)
        a.run(seconds: 0.5)
        #expect(a.center(gone).y > pausedAt + 100, "it fell on while the new item fell")
    }
}
