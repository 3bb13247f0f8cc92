import NetProtocol
import Testing
@testable import dynclient

/// `DragEcho`: your own dragged item drawn under the pointer at once, held at the release, eased into the
/// server's pose without a jump (docs/ARCHITECTURE.md, "The terminal client").
@Suite(.timeLimit(.minutes(1))) struct DragEchoTests {
    @Test func theDraggedItemIsUnderThePointerAtOnceAndOthersAreUntouched() {
        var echo = DragEcho()
        let server = [1: Pose(x: 400, y: 300, angle: 0), 2: Pose(x: 100, y: 100, angle: 1)]
        #expect(echo.poses(server, ownDrag: nil, pointer: nil, nowMs: 0) == server)
        // Grabbed 5 pt right of the centre; the pointer is at (605, 310): the centre is drawn at (600, 310).
        let drawn = echo.poses(server, ownDrag: (1, Point(5, 10)), pointer: Point(605, 310), nowMs: 16)
        #expect(drawn[1] == Pose(x: 600, y: 300, angle: 0))
        #expect(drawn[2] == server[2])
        // A rotated item: its grab point, not its centre, is under the pointer.
        let turned = [1: Pose(x: 400, y: 300, angle: .pi / 2)]
        let grabbed = echo.poses(turned, ownDrag: (1, Point(10, 0)), pointer: Point(500, 500), nowMs: 32)
        let grab = grabbed[1]?.apply(Point(10, 0))
        #expect(abs((grab?.x ?? 0) - 500) < 1e-9 && abs((grab?.y ?? 0) - 500) < 1e-9)
    }

    @Test func afterTheReleaseItHoldsThenEasesWithoutAJump() {
        var echo = DragEcho()
        _ = echo.poses([1: Pose(x: 400, y: 300, angle: 0)], ownDrag: (1, Point(0, 0)), pointer: Point(600, 300), nowMs: 0)
        // Released; the server's pose is still a round trip behind: the item stays where it was let go.
        var serverX = 450.0, last = 600.0, biggest = 0.0
        var ms: UInt64 = 16
        while echo.isActive, ms < 3000 {
            serverX = min(599, serverX + 6)   // the server's pose catching up, 6 pt a frame, stopping 1 pt short
            let x = echo.poses([1: Pose(x: serverX, y: 300, angle: 0)], ownDrag: nil, pointer: nil, nowMs: ms)[1]?.x ?? 0
            if ms == 16 { #expect(x == 600, "held where it was let go") }
            biggest = max(biggest, abs(x - last))
            last = x
            ms += 16
        }
        #expect(!echo.isActive, "the echo ended")
        #expect(last == 599, "the server's pose is drawn exactly at the end")
        #expect(biggest < 0.5, "no frame moved the item more than \(biggest) pt")
    }

    @Test func anItemThatIsGoneEndsTheEcho() {
        var echo = DragEcho()
        _ = echo.poses([1: Pose(x: 0, y: 0, angle: 0)], ownDrag: (1, Point(0, 0)), pointer: Point(50, 0), nowMs: 0)
        #expect(echo.poses([:], ownDrag: nil, pointer: nil, nowMs: 16).isEmpty)
        #expect(!echo.isActive)
    }
}
