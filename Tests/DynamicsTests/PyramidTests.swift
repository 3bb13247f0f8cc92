import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func twentyRowPyramidStandsForTenSecondsAndThenTheAnimatorPauses() throws {
    let a = DynamicAnimator(width: 1000, height: 900)
    _ = a.add(GravityBehavior())
    _ = a.add(CollisionBehavior())
    var pauses = 0
    a.onRunningChange = { if !$0 { pauses += 1 } }
    var starts: [(ItemID, Vec2)] = []
    let size = 40.0, rows = 20
    for i in 0..<rows {
        for j in 0..<(rows - i) {
            let c = Vec2(500 + (Double(j) - 0.5 * Double(rows - i - 1)) * size, 900 - (Double(i) + 0.5) * size)
            starts.append((try a.addItem(width: size, height: size, center: c, properties: .init(friction: 0.6)), c))
        }
    }
    #expect(a.isRunning)
    a.run(seconds: 10)
    var worst = 0.0
    for (id, c) in starts { worst = max(worst, distance(a.center(id), c)) }
    #expect(worst < 2)
    #expect(!a.isRunning)
    #expect(pauses == 1)
}
