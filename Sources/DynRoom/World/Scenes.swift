import Dynamics

/// The preset scenes: `default`, `empty`, and one per seed recipe. Coordinates scale with the world size,
/// so every scene fits whatever `--world` the server runs with.
package enum Scenes {
    package static let names = ["default", "empty", "gravity", "collision", "push", "attachment", "snap", "elasticity",
                        "fields", "joints", "group"]

    package static func named(_ name: String) -> ((SharedWorld) -> Void)? {
        switch name {
        case "default": return showcase
        case "empty": return { _ in }
        case "gravity": return gravity
        case "collision": return collision
        case "push": return push
        case "attachment": return attachment
        case "snap": return snap
        case "elasticity": return elasticity
        case "fields": return fields
        case "joints": return joints
        case "group": return group
        default: return nil
        }
    }

    /// Seed 2.1: squares falling under gravity onto the bottom of the bounds.
    package static func gravity(_ w: SharedWorld) {
        for i in 0..<5 {
            let x = w.width * Double(i + 1) / 6
            _ = try? w.spawn(width: 60, height: 60, at: Vec2(x, 60 + Double(i) * 25))
        }
    }

    /// Seed 2.2: two squares, the reference bounds and a boundary line they land on.
    package static func collision(_ w: SharedWorld) {
        _ = try? w.spawn(width: 100, height: 100, at: Vec2(w.width * 0.35, 80))
        _ = try? w.spawn(width: 100, height: 100, at: Vec2(w.width * 0.45, 220))
        var c = w.collision
        c.addBoundary(id: "line", from: Vec2(0, w.height * 0.8), to: Vec2(w.width, w.height * 0.8))
        w.collision = c
    }

    /// Seed 2.3: an 80 x 80 square in the middle with a continuous push that taps aim (no gravity).
    package static func push(_ w: SharedWorld) {
        var g = w.gravity
        g.magnitude = 0
        w.gravity = g
        guard let id = try? w.spawn(width: 80, height: 80, at: Vec2(w.width / 2, w.height / 2)) else { return }
        try? w.setPush(body: id, mode: .continuous, angle: 0, magnitude: 0, active: true, offset: nil)
    }

    /// Seed 2.4: a square hanging by an off-centre point (its top-right corner area) from an anchor.
    package static func attachment(_ w: SharedWorld) {
        let anchor = Vec2(w.width / 2, w.height * 0.15)
        guard let id = try? w.spawn(width: 100, height: 100, at: Vec2(w.width / 2 + 60, w.height * 0.45)) else { return }
        if let b = try? w.animator.add(AttachmentBehavior.anchored(id, offset: Vec2(25, -25), to: anchor)) {
            w.sceneAttachments.append(b)
        }
    }

    /// Seed 2.5: a square snapped to the centre with damping 0.5 (no gravity).
    package static func snap(_ w: SharedWorld) {
        var g = w.gravity
        g.magnitude = 0
        w.gravity = g
        guard let id = try? w.spawn(width: 80, height: 80, at: Vec2(w.width * 0.25, w.height * 0.3), angle: 0.5) else { return }
        _ = try? w.snap(body: id, x: w.width / 2, y: w.height / 2, damping: 0.5)
    }

    /// Seed 2.6: two squares stacked, the lower very elastic, the upper not; as in UIKit's engine they fall
    /// and bounce together (docs/ENGINE.md, "Restitution"). Beside them the same two squares apart, where
    /// the elastic one bounces clearly higher.
    package static func elasticity(_ w: SharedWorld) {
        _ = try? w.spawn(width: 50, height: 50, at: Vec2(w.width * 0.3, 100), properties: ItemProperties(elasticity: 0))
        _ = try? w.spawn(width: 50, height: 50, at: Vec2(w.width * 0.3, 150), properties: ItemProperties(elasticity: 0.9))
        _ = try? w.spawn(width: 50, height: 50, at: Vec2(w.width * 0.6, 150), properties: ItemProperties(elasticity: 0))
        _ = try? w.spawn(width: 50, height: 50, at: Vec2(w.width * 0.75, 150), properties: ItemProperties(elasticity: 0.9))
    }

    /// The default room: something of every behavior, sized to read well in a terminal.
    package static func showcase(_ w: SharedWorld) {
        let W = w.width, H = w.height
        var c = w.collision
        c.addBoundary(id: "ledge", from: Vec2(0, H * 0.45), to: Vec2(W * 0.3, H * 0.55))
        c.addBoundary(id: "wedge", points: [Vec2(W * 0.62, H), Vec2(W * 0.7, H * 0.86), Vec2(W * 0.78, H)], closed: true)
        w.collision = c
        // A small stack on the floor and a polygon.
        for row in 0..<3 {
            for col in 0..<(3 - row) {
                let x = W * 0.42 + Double(col) * 52 + Double(row) * 26
                _ = try? w.spawn(width: 50, height: 50, at: Vec2(x, H - 25 - Double(row) * 50),
                                 properties: ItemProperties(friction: 0.6))
            }
        }
        _ = try? w.spawn(shape: .polygon([Vec2(0, -35), Vec2(33, -11), Vec2(21, 28), Vec2(-21, 28), Vec2(-33, -11)]),
                         width: 66, height: 63, at: Vec2(W * 0.15, H * 0.3), properties: ItemProperties(friction: 0.3))
        // Balls: a bouncy one and a heavy one.
        _ = try? w.spawn(shape: .ellipse, width: 40, height: 40, at: Vec2(W * 0.12, H * 0.1),
                         properties: ItemProperties(elasticity: 0.9))
        // The heavy ball falls clear of the shelf's right end (not onto its box).
        _ = try? w.spawn(shape: .ellipse, width: 60, height: 60, at: Vec2(W * 0.96, H * 0.2),
                         properties: ItemProperties(elasticity: 0.3, friction: 0.2, density: 3))
        // An anchored shelf with a box resting on it.
        _ = try? w.spawn(width: 160, height: 16, at: Vec2(W * 0.8, H * 0.6), properties: ItemProperties(anchored: true),
                         color: Palette.ground)
        _ = try? w.spawn(width: 40, height: 40, at: Vec2(W * 0.8, H * 0.6 - 28), properties: ItemProperties(friction: 0.8))
        // A pendulum hanging from an anchor by an off-centre point, damped so that the room comes to rest.
        if let bob = try? w.spawn(width: 60, height: 40, at: Vec2(W * 0.55, H * 0.3),
                                  properties: ItemProperties(resistance: 0.8, angularResistance: 0.8)) {
            if let a = try? w.animator.add(AttachmentBehavior.anchored(bob, offset: Vec2(-20, -15), to: Vec2(W * 0.45, H * 0.08))) {
                w.sceneAttachments.append(a)
            }
        }
        // A spring pair: two items joined by a springy attachment.
        if let a = try? w.spawn(width: 36, height: 36, at: Vec2(W * 0.3, H * 0.15)),
           let b = try? w.spawn(shape: .ellipse, width: 36, height: 36, at: Vec2(W * 0.3 + 90, H * 0.15)) {
            var spring = AttachmentBehavior.items(a, b)
            spring.frequency = 1.5
            spring.damping = 0.3
            if let id = try? w.animator.add(spring) { w.sceneAttachments.append(id) }
        }
        // A snapped square that settles at the top right, and a no-rotation feather with high resistance.
        if let s = try? w.spawn(width: 50, height: 50, at: Vec2(W * 0.7, H * 0.25), angle: 0.6) {
            _ = try? w.snap(body: s, x: W * 0.75, y: H * 0.15, damping: 0.5)
        }
        _ = try? w.spawn(width: 70, height: 20, at: Vec2(W * 0.2, H * 0.7),
                         properties: ItemProperties(resistance: 4, allowsRotation: false))
    }
}
