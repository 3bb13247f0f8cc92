import Dynamics

/// Box2D's "smash" benchmark, without gravity: an 8 m box of density 8 flying at 40 m/s into a block of
/// `size` × (2/3 · `size`) (120 × 80 = 9 600) boxes of 0.4 m, 30 m to its right. Box2D creates the block
/// asleep; dyn cannot add a sleeping item, so the block falls asleep by itself (after 0.5 s at rest, before
/// the big box arrives at about 1.1 s) when sleeping is on.
enum SmashScene: BenchScene {
    static let name = "smash"
    static let defaultSize = 120
    static let sizeMeaning = "columns of the block (rows = 2/3 of it)"

    static func build(_ a: DynamicAnimator, size columns: Int) throws -> BuiltScene {
        _ = a.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: false))
        var heavy = BenchUnits.material
        heavy.density = 8
        let hammer = try a.addItem(width: BenchUnits.length(8), height: BenchUnits.length(8),
                                   center: BenchUnits.point(-20, 0), velocity: BenchUnits.point(40, 0),
                                   properties: heavy)
        var ids = [hammer]
        let d = 0.4
        let rows = max(1, columns * 2 / 3)
        for i in 0..<columns {
            for j in 0..<rows {
                ids.append(try a.addItem(width: BenchUnits.length(d), height: BenchUnits.length(d),
                                         center: BenchUnits.point(Double(i) * d + 30, (Double(j) - Double(rows) / 2) * d),
                                         properties: BenchUnits.material))
            }
        }
        return BuiltScene(bodies: ids)
    }
}
