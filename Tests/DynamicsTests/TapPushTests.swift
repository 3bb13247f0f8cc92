import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func tapPushPointsFromCenterTowardTap() {
    let r = tapPush(at: Vec2(400, 300), itemCenter: Vec2(100, 300))
    #expect(r.angle == 0)
    #expect(r.magnitude == 1.5)
}

@Test(.timeLimit(.minutes(3))) func tapPushAngleFollowsAtan2WithYDown() {
    let r = tapPush(at: Vec2(100, 500), itemCenter: Vec2(100, 300))
    #expect(abs(r.angle - Double.pi / 2) < 1e-12)
    #expect(abs(r.magnitude - 1.0) < 1e-12)
    let diag = tapPush(at: Vec2(0, 0), itemCenter: Vec2(30, 40))
    #expect(abs(diag.angle - (-Double.pi + 0.9272952180016122)) < 1e-12)
    #expect(abs(diag.magnitude - 0.25) < 1e-12)
}
