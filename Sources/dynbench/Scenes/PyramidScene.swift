import Dynamics

/// `pyramid R`: a static ground whose top is y = 0 and R rows of 1 m boxes, row i holding R − i boxes,
/// exactly touching (Box2D's large-pyramid layout; the ground is R + 40 m wide).
enum PyramidScene: BenchScene {
    static let name = "pyramid"
    static let defaultSize = 40
    static let sizeMeaning = "rows"

    static func build(_ a: DynamicAnimator, size rows: Int) throws -> BuiltScene {
        _ = a.add(GravityBehavior())
        _ = a.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: false))
        let m = BenchUnits.pointsPerMetre
        _ = try a.addItem(width: (Double(rows) + 40) * m, height: m, center: BenchUnits.point(0, -0.5),
                          properties: BenchUnits.staticMaterial)
        return BuiltScene(bodies: try addPyramid(a, base: rows, extent: 0.5, centerX: 0, baseY: 0))
    }

    /// Box2D's pyramid of `base` rows of squares of half-extent `extent` (metres), centred on `centerX`, its
    /// bottom row resting on y = `baseY`.
    static func addPyramid(_ a: DynamicAnimator, base: Int, extent: Double, centerX: Double,
                           baseY: Double) throws -> [ItemID] {
        var ids: [ItemID] = []
        let side = BenchUnits.length(2 * extent)
        for i in 0..<base {
            let y = (2 * Double(i) + 1) * extent + baseY
            let count = base - i
            for j in 0..<count {
                let x = centerX + (2 * Double(j) - Double(count - 1)) * extent
                ids.append(try a.addItem(width: side, height: side, center: BenchUnits.point(x, y),
                                         properties: BenchUnits.material))
            }
        }
        return ids
    }
}
