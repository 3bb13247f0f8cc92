import NetProtocol
import Testing
@testable import dynclient

@Suite struct PointerTrackTests {
    @Test(.timeLimit(.minutes(3))) func velocityOverTheRecentSamples() {
        var track = PointerTrack()
        track.add(Point(0, 0), atMs: 0)
        track.add(Point(100, 0), atMs: 200)
        track.add(Point(110, 5), atMs: 250)
        track.add(Point(130, 15), atMs: 300)
        // Within the last 120 ms of t = 300: samples at 200, 250, 300: 30 pt and 15 pt in 0.1 s.
        let (vx, vy) = track.velocity(atMs: 300)
        #expect(vx == 300)
        #expect(vy == 150)
    }

    @Test(.timeLimit(.minutes(3))) func aPointerThatStoppedOrOneSampleGivesNoVelocity() {
        var track = PointerTrack()
        track.add(Point(0, 0), atMs: 0)
        #expect(track.velocity(atMs: 0) == (0, 0))
        track.add(Point(50, 0), atMs: 20)
        #expect(track.velocity(atMs: 20 + PointerTrack.stillMs + 1) == (0, 0))
        #expect(track.velocity(atMs: 20).vx == 2500)
    }
}
