import NetProtocol
import Testing
@testable import dynclient

/// What a new user tripped on, in the terminal client's pure parts: the room left leaves nothing behind,
/// a spawned item is selected (`n` then `e`).
@Suite(.timeLimit(.minutes(1))) struct NewUserFixesTests {
    @Test func joiningAnotherRoomClearsWhatTheOldRoomShowed() {
        var feedback = Feedback()
        feedback.notice("ann spawned rect #3", atMs: 0)
        feedback.tapLanded(at: Point(10, 20), pushed: 3, atMs: 0)
        feedback.contact(at: Point(5, 5), atMs: 0)
        feedback.succeeded("you are in room lab", atMs: 0)
        feedback.roomChanged()
        #expect(feedback.notices.isEmpty && feedback.flashes.isEmpty)
        #expect(feedback.ring == nil && feedback.highlight == nil)
        #expect(feedback.result?.text == "you are in room lab", "the join's own answer stays")
    }

    @Test func aSpawnedItemIsSelectedSoEEditsIt() {
        let world = Fixtures.world()
        var interaction = Interaction()
        #expect(interaction.selected == nil)
        interaction.spawned(2, world: world)
        #expect(interaction.selected == 2)
        // An id the world does not know (yet) selects nothing.
        interaction.spawned(99, world: world)
        #expect(interaction.selected == 2)
    }
}

/// `make run | tee log` (docs/ARCHITECTURE.md, dynclient): a client turned headless by a pipe says so on
/// stderr when a person can read it there.
@Suite(.timeLimit(.minutes(1))) struct HeadlessNoticeTests {
    @Test func aPipedStdoutIsToldOnAStderrTerminal() {
        let notice = DynClientCommand.headlessNotice(asked: false, stdin: true, stdout: false, stderr: true)
        #expect(notice?.contains("stdout is not a terminal") == true && notice?.contains("headless") == true)
        #expect(DynClientCommand.headlessNotice(asked: false, stdin: false, stdout: true, stderr: true)?.contains("stdin is not a terminal") == true)
        // Asked for, all terminals, or nobody to read it: nothing is said.
        #expect(DynClientCommand.headlessNotice(asked: true, stdin: true, stdout: false, stderr: true) == nil)
        #expect(DynClientCommand.headlessNotice(asked: false, stdin: true, stdout: true, stderr: true) == nil)
        #expect(DynClientCommand.headlessNotice(asked: false, stdin: false, stdout: false, stderr: false) == nil)
    }
}
