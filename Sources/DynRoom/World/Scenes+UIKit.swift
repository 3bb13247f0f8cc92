import Dynamics
import NetProtocol

/// The scenes of the rest of UIKit Dynamics (docs/UIKIT.md, Scenes): fields, the attachment kinds, and an
/// item group. They are built through the same functions as the commands, so everything they make is listed
/// in `scene` and can be moved, changed or removed over the wire.
extension Scenes {
    /// A radial gravity well on the left and a vortex on the right, with items to pull and stir (no gravity).
    package static func fields(_ w: SharedWorld) {
        let W = w.width, H = w.height
        var g = w.gravity
        g.magnitude = 0
        w.gravity = g
        // The two regions barely touch, so each field's items feel that field alone.
        _ = try? w.addField(kind: .radialGravity, FieldParameters(x: W * 0.3, y: H * 0.5, strength: 3,
                                                                   region: FieldRegionSpec(.radius(min(W, H) * 0.4))))
        _ = try? w.addField(kind: .vortex, FieldParameters(x: W * 0.78, y: H * 0.5, strength: 0.5,
                                                            region: FieldRegionSpec(.radius(min(W, H) * 0.28))))
        let light = ItemProperties(elasticity: 0.4, resistance: 0.3)
        for offset in [Vec2(150, 0), Vec2(0, 150), Vec2(-150, 0), Vec2(0, -150)] {
            _ = try? w.spawn(shape: .ellipse, width: 30, height: 30, at: Vec2(W * 0.3, H * 0.5) + offset, properties: light)
        }
        for k in 0..<3 {
            _ = try? w.spawn(width: 36, height: 36, at: Vec2(W * 0.78 + 50 + Double(k) * 20, H * 0.5 - 40 + Double(k) * 40),
                             properties: light)
        }
    }

    /// One of each attachment kind: a beam welded to a wall, a box on a sliding rail with a range, a gate on a
    /// pin with an angle range and friction, and a ball on a rope.
    package static func joints(_ w: SharedWorld) {
        let W = w.width, H = w.height
        func body(_ ack: SharedWorld.AckFields?) -> Int? {
            guard case .number(let n)? = ack?.first(where: { $0.0 == "body" })?.1 else { return nil }
            return Int(n)
        }
        func spawn(_ shape: ShapeName, _ width: Double, _ height: Double, _ x: Double, _ y: Double,
                   _ patch: PropertyPatch = PropertyPatch()) -> Int? {
            body(try? w.spawn(shape: shape, width: width, height: height, x: x, y: y, angle: nil, vx: nil, vy: nil, patch: patch))
        }
        // Weld: a beam sticking out of an anchored wall, carrying a box.
        if let wall = spawn(.rect, 30, 160, W * 0.08, H * 0.35, PropertyPatch(anchored: true, color: Palette.ground)),
           let beam = spawn(.rect, 160, 18, W * 0.08 + 95, H * 0.35) {
            _ = try? w.attach(AttachSpec(body: beam, target: .body(wall, offset: nil), kind: .fixed))
            _ = spawn(.rect, 36, 36, W * 0.08 + 140, H * 0.35 - 30, PropertyPatch(friction: 0.8))
        }
        // Slide: a box on a diagonal rail, stopped 160 pt down it.
        if let slider = spawn(.rect, 44, 44, W * 0.4, H * 0.2) {
            _ = try? w.attach(AttachSpec(body: slider, target: .anchor(Point(W * 0.4, H * 0.2)), kind: .sliding,
                                         axis: DirectionVector(1, 0.6), range: ValueRange(-40, 160)))
        }
        // Pin: a gate hinged at its left end that swings down at most 0.8 rad, against a little friction.
        if let gate = spawn(.rect, 150, 16, W * 0.62 + 75, H * 0.15) {
            _ = try? w.attach(AttachSpec(body: gate, target: .anchor(Point(W * 0.62, H * 0.15)), kind: .pin,
                                         range: ValueRange(-0.8, 0.8), frictionTorque: 0.3))
        }
        // Limit: a ball on a 150 pt rope, started off to the side so it swings on the taut rope.
        if let ball = spawn(.ellipse, 40, 40, W * 0.85 + 100, H * 0.3, PropertyPatch(elasticity: 0.5)) {
            _ = try? w.attach(AttachSpec(body: ball, target: .anchor(Point(W * 0.85, H * 0.3)), kind: .limit, length: 150))
        }
    }

    /// UIDynamicItemGroup: a concave cup (a U from three rectangles) and an L, dropped on the floor, with a ball
    /// that lands in the cup.
    package static func group(_ w: SharedWorld) {
        let W = w.width, H = w.height
        func spawn(_ width: Double, _ height: Double, _ x: Double, _ y: Double, shape: ItemShape = .rect) -> ItemID? {
            try? w.spawn(shape: shape, width: width, height: height, at: Vec2(x, y), properties: ItemProperties(friction: 0.5))
        }
        let cx = W * 0.35, top = H * 0.3
        if let bottom = spawn(160, 20, cx, top + 90), let left = spawn(20, 80, cx - 70, top + 40),
           let right = spawn(20, 80, cx + 70, top + 40) {
            _ = try? w.group([bottom, left, right])
        }
        if let foot = spawn(120, 30, W * 0.72, top + 60), let upright = spawn(30, 90, W * 0.72 - 45, top) {
            _ = try? w.group([foot, upright])
        }
        _ = spawn(40, 40, cx, top - 80, shape: .ellipse)
    }
}
