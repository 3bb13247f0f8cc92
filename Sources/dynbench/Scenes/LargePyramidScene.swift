import Dynamics

/// Box2D's "large_pyramid" benchmark: a ground box 200 m × 2 m whose top is y = 0 and a pyramid of
/// `base` rows (100: 5 050 boxes) of 1 m boxes. Box2D runs it with sleeping off (`--no-sleep`).
enum LargePyramidScene: BenchScene {
    static let name = "large_pyramid"
    static let defaultSize = 100
    static let sizeMeaning = "rows"

    static func build(_ a: DynamicAnimator, size base: Int) throws -> BuiltScene {
        _ = a.add(GravityBehavior())
        _ = a.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: false))
        _ = try a.addItem(width: BenchUnits.length(200), height: BenchUnits.length(2), center: BenchUnits.point(0, -1),
                          properties: BenchUnits.staticMaterial)
        return BuiltScene(bodies: try PyramidScene.addPyramid(a, base: base, extent: 0.5, centerX: 0, baseY: 0))
    }
}
