import Dynamics

/// Box2D's "tumbler" benchmark: a hollow 20 m box (walls 1 m thick, density 50) turning at 25°/s about its
/// centre 10 m up, with `size` × `size` (45 × 45 = 2 025) boxes of 0.25 m inside.
///
/// Box2D's box is one body of four shapes on a revolute joint with a motor. dyn items have one shape and
/// attachments have no motor, so here each wall is its own item, pinned (a pin attachment) to the world at
/// the tumbler's centre and driven by a velocity motor (`VelocityMotor`: its angular velocity is set to
/// 25°/s before every step, as Box2D's motor with its 10⁸ N·m torque does). The walls are left out of
/// gravity (the pins would hold them anyway) and collide only with the boxes, not with each other, so that
/// their overlapping corners do not push them apart: one collision behavior per wall, each holding that
/// wall and every box.
enum TumblerScene: BenchScene {
    static let name = "tumbler"
    static let defaultSize = 45
    static let sizeMeaning = "boxes per side"

    static func build(_ a: DynamicAnimator, size gridCount: Int) throws -> BuiltScene {
        let center = (x: 0.0, y: 10.0)
        var wall = BenchUnits.material
        wall.density = 50
        // (offset from the centre, half extents), metres, y up.
        let walls: [(dx: Double, dy: Double, hx: Double, hy: Double)] = [
            (10, 0, 0.5, 10), (-10, 0, 0.5, 10), (0, 10, 10, 0.5), (0, -10, 10, 0.5),
        ]
        var wallIDs: [ItemID] = []
        for w in walls {
            let id = try a.addItem(width: BenchUnits.length(2 * w.hx), height: BenchUnits.length(2 * w.hy),
                                   center: BenchUnits.point(center.x + w.dx, center.y + w.dy), properties: wall)
            _ = try a.add(AttachmentBehavior(item: id, offset: BenchUnits.point(-w.dx, -w.dy),
                                             anchor: BenchUnits.point(center.x, center.y), kind: .pin))
            wallIDs.append(id)
        }
        var boxes: [ItemID] = []
        let side = BenchUnits.length(0.25)
        var y = -0.2 * Double(gridCount) + 10
        for _ in 0..<gridCount {
            var x = -0.2 * Double(gridCount)
            for _ in 0..<gridCount {
                boxes.append(try a.addItem(width: side, height: side, center: BenchUnits.point(x, y),
                                           properties: BenchUnits.material))
                x += 0.4
            }
            y += 0.4
        }
        _ = a.add(GravityBehavior(items: .only(boxes)))
        for id in wallIDs {
            _ = a.add(CollisionBehavior(items: .only(boxes + [id]), translatesReferenceBoundsIntoBoundary: false))
        }
        let speed = BenchUnits.angularVelocity(25 * Double.pi / 180)
        let motors = wallIDs.map { VelocityMotor(item: $0, speed: speed) }
        return BuiltScene(bodies: boxes, beforeStep: { animator in
            for m in motors { try m.drive(animator) }
        })
    }
}
