import Dynamics
import Foundation

/// Box2D's "spinner" benchmark: inside a closed ring of radius 40 m (360 points, centred 32 m up; Box2D: a
/// looped chain of friction 0.1, here a closed boundary), a 1.2 m × 40.4 m bar pinned at its centre 12 m up
/// turns at 5 rad/s (it is left out of gravity) and stirs `size` (6 076) bodies of density 0.25, friction 0.1 and restitution 0.1,
/// cycling capsule, circle (radius 0.35 m) and square (0.7 m).
///
/// What differs: Box2D's bar is a rounded box (half extents 0.4 × 20 m with radius 0.2 m); dyn has no
/// rounded polygons, so the bar is the rectangle around it. Box2D's capsule (segment ±0.25 m, radius
/// 0.25 m) is a 14-sided polygon hugging it. The bar's revolute motor (unlimited torque) is a velocity motor
/// (`VelocityMotor`) on a pin attachment. A boundary takes its friction from the item touching it.
enum SpinnerScene: BenchScene {
    static let name = "spinner"
    static let defaultSize = 2 * 3038
    static let sizeMeaning = "bodies"

    static func build(_ a: DynamicAnimator, size bodyCount: Int) throws -> BuiltScene {
        var ring: [Vec2] = []
        let pointCount = 360
        for i in 0..<pointCount {
            // Box2D walks the ring clockwise from (40, 0); the winding does not matter to a closed boundary.
            let t = -2 * Double.pi * Double(i) / Double(pointCount)
            ring.append(BenchUnits.point(40 * cos(t), 40 * sin(t) + 32))
        }
        var collision = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
        collision.addBoundary(id: "ring", points: ring, closed: true)
        _ = a.add(collision)

        var barMaterial = BenchUnits.material
        barMaterial.friction = 0
        let bar = try a.addItem(width: BenchUnits.length(1.2), height: BenchUnits.length(40.4),
                                center: BenchUnits.point(0, 12), properties: barMaterial)
        _ = try a.add(AttachmentBehavior(item: bar, anchor: BenchUnits.point(0, 12), kind: .pin))

        let material = ItemProperties(elasticity: 0.1, friction: 0.1, density: 0.25)
        let capsule = ItemShape.polygon(capsulePoints(halfLength: 0.25, radius: 0.25))
        var ids: [ItemID] = []
        var x = -23.0, y = 2.0
        for i in 0..<bodyCount {
            let center = BenchUnits.point(x, y)
            switch i % 3 {
            case 0:
                ids.append(try a.addItem(shape: capsule, width: BenchUnits.length(1), height: BenchUnits.length(0.5),
                                         center: center, properties: material))
            case 1:
                ids.append(try a.addItem(shape: .ellipse, width: BenchUnits.length(0.7),
                                         height: BenchUnits.length(0.7), center: center, properties: material))
            default:
                ids.append(try a.addItem(width: BenchUnits.length(0.7), height: BenchUnits.length(0.7),
                                         center: center, properties: material))
            }
            x += 0.5
            if x >= 23 {
                x = -23
                y += 0.5
            }
        }
        _ = a.add(GravityBehavior(items: .only(ids)))
        let motor = VelocityMotor(item: bar, speed: BenchUnits.angularVelocity(5))
        return BuiltScene(bodies: ids, beforeStep: { try motor.drive($0) })
    }

    /// A convex polygon around a horizontal capsule (points, item frame): two half-circles of 6 edges each.
    static func capsulePoints(halfLength: Double, radius: Double) -> [Vec2] {
        let h = BenchUnits.length(halfLength), r = BenchUnits.length(radius)
        var points: [Vec2] = []
        let perCap = 6
        for k in 0...perCap {
            let t = -Double.pi / 2 + Double.pi * Double(k) / Double(perCap)
            points.append(Vec2(h + r * cos(t), r * sin(t)))
        }
        for k in 0...perCap {
            let t = Double.pi / 2 + Double.pi * Double(k) / Double(perCap)
            points.append(Vec2(-h + r * cos(t), r * sin(t)))
        }
        return points
    }
}
