import Dynamics
import NetProtocol

/// Conversions from the animator's state to the wire types of docs/PROTOCOL.md.
extension SharedWorld {
    package func sceneInfo() -> SceneInfo {
        let g = gravity
        let bodies: [BodyInfo] = animator.itemIDs.compactMap { id in
            guard let item = animator.item(id) else { return nil }
            let p = item.properties
            return BodyInfo(id: id, shape: ShapeName(item.shape), width: item.width, height: item.height,
                            elasticity: p.elasticity, friction: p.friction, density: p.density,
                            resistance: p.resistance, angularResistance: p.angularResistance,
                            allowsRotation: p.allowsRotation, anchored: p.anchored,
                            color: colors[id] ?? Palette.ground, charge: p.charge)
        }
        let boundaries = collision.boundaries.map {
            BoundaryInfo(id: $0.id, points: $0.points.map(Point.init), closed: $0.closed)
        }
        let attachments: [AttachmentInfo] = sceneAttachments.compactMap { id in
            guard let a = animator.attachment(id) else { return jointAttachmentInfo(id) }
            var info = AttachmentInfo(body: a.item, anchor: a.anchor.map(Point.init), toBody: a.otherItem,
                                      offset: Point(a.offset), toOffset: a.otherItem == nil ? nil : Point(a.otherOffset),
                                      length: a.length ?? 0, frequency: a.frequency, damping: a.damping)
            describe(a, id: id, into: &info)
            return info
        }
        let snapInfos: [SnapInfo] = snaps.sorted { $0.key < $1.key }.compactMap { _, id in
            guard let s = animator.snap(id) else { return nil }
            return SnapInfo(body: s.item, point: Point(s.point), damping: s.damping)
        }
        var scene = SceneInfo(name: sceneName, gravity: GravityInfo(dx: g.direction.x, dy: g.direction.y, magnitude: g.magnitude),
                              collisionMode: CollisionModeName(rawValue: collision.mode.rawValue) ?? .everything,
                              bodies: bodies, boundaries: boundaries, attachments: attachments, snaps: snapInfos)
        scene.fields = fieldInfos
        scene.bounds = boundsInfo
        scene.groups = groupInfos
        scene.caption = Scenes.caption(sceneName)
        return scene
    }

    /// Fills `states` with every body's pose, reusing its storage (no allocation once it has grown).
    package func fillStates(_ states: inout [BodyState]) {
        states.removeAll(keepingCapacity: true)
        animator.forEachItem { id, center, angle, velocity, angularVelocity in
            states.append(BodyState(id: id, x: center.x, y: center.y, angle: angle,
                                    vx: velocity.x, vy: velocity.y, av: angularVelocity))
        }
    }

    package func dragInfos() -> [DragInfo] {
        drags.sorted { $0.key < $1.key }.map { client, d in
            DragInfo(client: client, name: d.clientName, body: d.body, x: d.anchor.x, y: d.anchor.y, offset: Point(d.offset))
        }
    }
}

extension Point {
    package init(_ v: Vec2) { self.init(v.x, v.y) }
}

extension Vec2 {
    package init(_ p: Point) { self.init(p.x, p.y) }
}

extension ShapeName {
    package init(_ shape: ItemShape) {
        switch shape {
        case .rect: self = .rect
        case .ellipse: self = .ellipse
        case .polygon(let points): self = .polygon(points.map(Point.init))
        }
    }

    package var itemShape: ItemShape {
        switch self {
        case .rect: return .rect
        case .ellipse: return .ellipse
        case .polygon(let points): return .polygon(points.map(Vec2.init))
        }
    }
}
