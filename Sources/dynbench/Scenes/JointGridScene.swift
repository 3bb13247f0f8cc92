import Dynamics

/// Box2D's "joint_grid" benchmark: `size` × `size` (100 × 100) circles of radius 0.4 m, 1 m apart, each
/// pinned to the one above and the one to its left by a pin attachment (Box2D: a revolute joint) half-way
/// between them; the seven top circles in the middle columns are anchored. Nothing collides (Box2D filters
/// every pair out; here there is no collision behavior). Box2D runs it with sleeping off (`--no-sleep`).
enum JointGridScene: BenchScene {
    static let name = "joint_grid"
    static let defaultSize = 100
    static let sizeMeaning = "circles per side"

    static func build(_ a: DynamicAnimator, size n: Int) throws -> BuiltScene {
        _ = a.add(GravityBehavior())
        let diameter = BenchUnits.length(0.8)
        let half = BenchUnits.length(0.5)
        var grid: [ItemID] = []
        var moving: [ItemID] = []
        grid.reserveCapacity(n * n)
        for k in 0..<n {
            for i in 0..<n {
                let anchored = k >= n / 2 - 3 && k <= n / 2 + 3 && i == 0
                let id = try a.addItem(shape: .ellipse, width: diameter, height: diameter,
                                       center: BenchUnits.point(Double(k), -Double(i)),
                                       properties: anchored ? BenchUnits.staticMaterial : BenchUnits.material)
                if !anchored { moving.append(id) }
                if i > 0 {
                    // The circle above (y up: +0.5 m below it is −0.5 m; y down here, so +half).
                    _ = try a.add(AttachmentBehavior(item: grid[grid.count - 1], offset: Vec2(0, half), otherItem: id,
                                                     otherOffset: Vec2(0, -half), kind: .pin))
                }
                if k > 0 {
                    _ = try a.add(AttachmentBehavior(item: grid[grid.count - n], offset: Vec2(half, 0), otherItem: id,
                                                     otherOffset: Vec2(-half, 0), kind: .pin))
                }
                grid.append(id)
            }
        }
        return BuiltScene(bodies: moving)
    }
}
