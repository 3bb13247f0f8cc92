import Dynamics

/// Box2D's "many_pyramids" benchmark: `size` × `size` (20 × 20) pyramids of 10 rows of 1 m boxes (22 000
/// boxes), each row of pyramids on its own ground line 11 m above the previous one. Box2D's ground lines are
/// segment shapes of one static body; here each is a boundary (an open two-point polyline) of the
/// collision behavior. Box2D runs it with sleeping off (`--no-sleep`).
enum ManyPyramidsScene: BenchScene {
    static let name = "many_pyramids"
    static let defaultSize = 20
    static let sizeMeaning = "pyramid rows and columns"

    static func build(_ a: DynamicAnimator, size: Int) throws -> BuiltScene {
        let base = 10, extent = 0.5
        let rowCount = size, columnCount = size
        let groundDeltaY = 2 * extent * (Double(base) + 1)
        let groundWidth = 2 * extent * Double(columnCount) * (Double(base) + 1)
        _ = a.add(GravityBehavior())
        var collision = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
        for i in 0..<rowCount {
            let y = Double(i) * groundDeltaY
            collision.addBoundary(id: "ground\(i)", points: [BenchUnits.point(-0.5 * groundWidth, y),
                                                            BenchUnits.point(0.5 * groundWidth, y)], closed: false)
        }
        _ = a.add(collision)
        let baseWidth = 2 * extent * Double(base)
        var ids: [ItemID] = []
        for i in 0..<rowCount {
            for j in 0..<columnCount {
                let centerX = -0.5 * groundWidth + Double(j) * (baseWidth + 2 * extent) + 2 * extent
                // Box2D's small pyramid puts its bottom-left box at centerX − 0.5 + extent.
                let middle = centerX - 0.5 + Double(base) * extent
                ids += try PyramidScene.addPyramid(a, base: base, extent: extent, centerX: middle,
                                                   baseY: Double(i) * groundDeltaY)
            }
        }
        return BuiltScene(bodies: ids)
    }
}
