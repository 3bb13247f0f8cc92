import NetProtocol
import Testing
@testable import dynclient

@Suite(.timeLimit(.minutes(1))) struct GestureClockTests {
    static let motion = InputEvent.mouse(MouseEvent(kind: .motion, button: .left, column: 3, row: 4))

    @Test func byDefaultTheTimeIsTheEventLoops() {
        var clock = GestureClock(environment: [:])
        #expect(clock.time(of: Self.motion, loopMs: 1234) == 1234)
        #expect(clock.time(of: Self.motion, loopMs: 1234) == 1234)
    }

    @Test func withAStepEveryMouseReportIsThatMuchLaterWhateverTheLoopSays() {
        var clock = GestureClock(environment: [GestureClock.variable: "15"])
        #expect(clock.time(of: Self.motion, loopMs: 9_000) == 15)
        #expect(clock.time(of: Self.motion, loopMs: 9_000) == 30)
        // A key is no mouse report: the time stays.
        #expect(clock.time(of: .key(.character("x")), loopMs: 9_500) == 30)
        #expect(clock.time(of: Self.motion, loopMs: 1) == 45)
    }

    @Test func anUnusableStepLeavesTheEventLoopsTime() {
        for text in ["0", "-5", "abc", "1001", ""] {
            var clock = GestureClock(environment: [GestureClock.variable: text])
            #expect(clock.time(of: Self.motion, loopMs: 77) == 77, "step \(text)")
        }
    }

    /// The stroke of the end-to-end fling test on this clock: 120 pt in six reports after the press.
    @Test func aScriptedStrokeHasOneSpeed() {
        var clock = GestureClock(environment: [GestureClock.variable: "15"])
        var track = PointerTrack()
        for column in [50, 52, 54, 56, 58, 60, 62] {
            let event = InputEvent.mouse(MouseEvent(kind: .motion, button: .left, column: column, row: 15))
            track.add(Point(Double(column) * 10, 300), atMs: clock.time(of: event, loopMs: 0))
        }
        let release = InputEvent.mouse(MouseEvent(kind: .release, button: .left, column: 62, row: 15))
        let (vx, vy) = track.velocity(atMs: clock.time(of: release, loopMs: 0))
        #expect(abs(vx - 1333.333) < 0.001)
        #expect(vy == 0)
    }
}
