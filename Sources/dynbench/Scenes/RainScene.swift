import Dynamics

/// `rain N`: a container of inner width 20 m and N bodies dropped from an 18-column grid: pitch 1.05 m, rows
/// 1.2 m apart from 10 m up, odd rows shifted +0.25 m and even rows −0.25 m
/// (as the Box2D harness does); 1 m boxes where row+col is even, else 1 m circles.
enum RainScene: BenchScene {
    static let name = "rain"
    static let defaultSize = 1000
    static let sizeMeaning = "bodies"

    static func build(_ a: DynamicAnimator, size count: Int) throws -> BuiltScene {
        _ = a.add(GravityBehavior())
        _ = a.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: false))
        let m = BenchUnits.pointsPerMetre
        let columns = 18
        let rowsNeeded = (count + columns - 1) / columns
        let wallHeight = 10 + 1.2 * Double(rowsNeeded) + 10
        let solid = BenchUnits.staticMaterial
        _ = try a.addItem(width: 22 * m, height: m, center: BenchUnits.point(0, -0.5), properties: solid)
        for side in [-10.5, 10.5] {
            _ = try a.addItem(width: m, height: wallHeight * m, center: BenchUnits.point(side, 0.5 * wallHeight),
                              properties: solid)
        }
        var ids: [ItemID] = []
        for k in 0..<count {
            let row = k / columns, col = k % columns
            let shift = row % 2 == 1 ? 0.25 : -0.25
            let x = (Double(col) - 0.5 * Double(columns - 1)) * 1.05 + shift
            let y = 10 + 1.2 * Double(row)
            let shape: ItemShape = (row + col) % 2 == 0 ? .rect : .ellipse
            ids.append(try a.addItem(shape: shape, width: m, height: m, center: BenchUnits.point(x, y),
                                     properties: BenchUnits.material))
        }
        return BuiltScene(bodies: ids)
    }
}
