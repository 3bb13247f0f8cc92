import Dynamics
import NetProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The effect of each world-changing client command (docs/PROTOCOL.md), on the loop thread.
///
/// Every function either changes the world and returns the ack's result fields, or changes nothing and
/// throws the `ProtocolError` to answer with.
extension SharedWorld {
    package typealias AckFields = [(String, JSONValue)]

    package func requireBody(_ id: Int) throws(ProtocolError) {
        guard contains(id) else { throw ProtocolError(.unknownBody, "no body with id \(id)") }
    }

    package func tap(x: Double, y: Double, body: Int?, mode: PushModeName) throws(ProtocolError) -> AckFields {
        let point = Vec2(x, y)
        let target: ItemID
        if let body {
            try requireBody(body)
            target = body
        } else if let hit = animator.item(at: point) ?? animator.nearestItem(to: point) {
            target = hit
        } else {
            throw ProtocolError(.noBody, "there is no item to tap")
        }
        guard let center = animator.item(target)?.center else { throw ProtocolError(.unknownBody, "no body with id \(target)") }
        let recipe = tapPush(at: point, itemCenter: center)
        try PhysicsLimits.checkPush(recipe.magnitude, "x")
        try setPush(body: target, mode: mode, angle: recipe.angle, magnitude: recipe.magnitude, active: true, offset: nil)
        return [("body", .number(Double(target))), ("angle", .number(recipe.angle)), ("magnitude", .number(recipe.magnitude))]
    }

    package func push(body: Int, direction: PushDirection?, mode: PushModeName?, active: Bool?, offset: Point?) throws(ProtocolError) -> AckFields {
        try requireBody(body)
        let mode = mode ?? .continuous
        let existing = (mode == .continuous ? continuousPushes[body] : instantPushes[body]).flatMap { animator.push($0) }
        var angle = existing?.angle ?? 0
        var magnitude = existing?.magnitude ?? 0
        switch direction {
        case .angle(let a, let m)?:
            angle = a
            magnitude = m
        case .vector(let dx, let dy)?:
            try PhysicsLimits.checkPush(dx, "dx")
            try PhysicsLimits.checkPush(dy, "dy")
            var probe = PushBehavior(items: [body], mode: .continuous)
            probe.pushDirection = Vec2(dx, dy)
            angle = probe.angle
            magnitude = probe.magnitude
        case nil:
            guard existing != nil else {
                throw ProtocolError(.badMessage, "push needs angle+magnitude or dx+dy (body \(body) has no \(mode.rawValue) push yet)")
            }
        }
        try PhysicsLimits.checkPush(magnitude, "magnitude")
        try setPush(body: body, mode: mode, angle: angle, magnitude: magnitude, active: active ?? true, offset: offset)
        return [("body", .number(Double(body))), ("angle", .number(angle)), ("magnitude", .number(magnitude))]
    }

    /// Creates or updates the body's push of `mode`; an instantaneous push fires once on the next step.
    package func setPush(body: ItemID, mode: PushModeName, angle: Double, magnitude: Double, active: Bool, offset: Point?) throws(ProtocolError) {
        let dynMode: PushMode = mode == .continuous ? .continuous : .instantaneous
        var push = PushBehavior(items: [body], mode: dynMode)
        let table = mode == .continuous ? continuousPushes : instantPushes
        if let id = table[body], let old = animator.push(id) { push = old }
        push.mode = dynMode
        push.angle = angle
        push.magnitude = magnitude
        push.active = active
        if let offset { push.targetOffsets[body] = Vec2(offset) }
        do {
            if let id = table[body], animator.push(id) != nil {
                try animator.update(id, push)
            } else {
                let id = try animator.add(push)
                if mode == .continuous { continuousPushes[body] = id } else { instantPushes[body] = id }
            }
        } catch {
            throw ProtocolError(.badValue, "push rejected: \(error.protocolWords)")
        }
    }

    package func dragBegin(client: Int, name: String, x: Double, y: Double, body: Int?) throws(ProtocolError) -> AckFields {
        let anchor = Vec2(x, y)
        let target: ItemID
        if let body {
            try requireBody(body)
            target = body
        } else if let hit = animator.item(at: anchor) {
            target = hit
        } else {
            throw ProtocolError(.noBody, "no item under (\(x), \(y)) to drag")
        }
        guard let item = animator.item(target) else { throw ProtocolError(.unknownBody, "no body with id \(target)") }
        endDrag(client: client)
        // The grab point in the item's frame, so it stays the same point of the item as the item turns.
        let d = anchor - item.center
        let c = cos(item.angle), s = sin(item.angle)
        let offset = Vec2(c * d.x + s * d.y, -s * d.x + c * d.y)
        do {
            let id = try animator.add(DragBehavior(item: target, offset: offset, target: anchor))
            drags[client] = Drag(body: target, joint: id, anchor: anchor, offset: offset, clientName: name)
        } catch {
            throw ProtocolError(.badValue, "drag point (\(x), \(y)) is out of range")
        }
        return [("body", .number(Double(target)))]
    }

    package func dragMove(client: Int, x: Double, y: Double) throws(ProtocolError) -> AckFields {
        guard var drag = drags[client], var behavior = animator.drag(drag.joint) else {
            throw ProtocolError(.notDragging, "drag move without drag begin")
        }
        behavior.target = Vec2(x, y)
        do { try animator.update(drag.joint, behavior) } catch {
            throw ProtocolError(.badValue, "drag point (\(x), \(y)) is out of range")
        }
        drag.anchor = Vec2(x, y)
        drags[client] = drag
        return [("body", .number(Double(drag.body)))]
    }

    package func dragEnd(client: Int) throws(ProtocolError) -> AckFields {
        guard let drag = drags[client] else { throw ProtocolError(.notDragging, "drag end without drag begin") }
        endDrag(client: client)
        return [("body", .number(Double(drag.body)))]
    }

    package func snap(body: Int, x: Double, y: Double, damping: Double?) throws(ProtocolError) -> AckFields {
        try requireBody(body)
        let behavior = SnapBehavior(item: body, point: Vec2(x, y), damping: damping ?? 0.5)
        do {
            if let id = snaps[body], animator.snap(id) != nil {
                try animator.update(id, behavior)
            } else {
                snaps[body] = try animator.add(behavior)
            }
        } catch {
            throw ProtocolError(.badValue, "snap rejected: \(error.protocolWords)")
        }
        structureChanged = true
        return [("body", .number(Double(body)))]
    }

    package func unsnap(body: Int) throws(ProtocolError) -> AckFields {
        try requireBody(body)
        if let id = snaps.removeValue(forKey: body) {
            animator.removeBehavior(id)
            structureChanged = true
        }
        return [("body", .number(Double(body)))]
    }

    package func set(body: Int, patch: PropertyPatch) throws(ProtocolError) -> AckFields {
        try requireBody(body)
        guard var p = animator.item(body)?.properties else { throw ProtocolError(.unknownBody, "no body with id \(body)") }
        patch.apply(to: &p)
        do { try animator.setProperties(body, p) } catch { throw ProtocolError(.badValue, "set rejected: \(error.protocolWords)") }
        if let color = patch.color { colors[body] = color.lowercased() }
        structureChanged = true
        return [("body", .number(Double(body)))]
    }

    package func changeGravity(_ change: GravityChange) throws(ProtocolError) -> AckFields {
        var g = gravity
        switch change {
        case .vector(let dx, let dy, let magnitude):
            try PhysicsLimits.checkGravity(dx, "dx")
            try PhysicsLimits.checkGravity(dy, "dy")
            if let magnitude { try PhysicsLimits.checkGravity(magnitude, "magnitude") }
            let v = Vec2(dx, dy)
            if let magnitude, v.length > 0 {
                g.direction = v * (magnitude / v.length)
            } else {
                g.direction = v
            }
        case .angle(let angle, let magnitude):
            if let magnitude { try PhysicsLimits.checkGravity(magnitude, "magnitude") }
            let m = magnitude ?? g.magnitude
            g.direction = Vec2(cos(angle), sin(angle)) * m
        case .magnitude(let m):
            try PhysicsLimits.checkGravity(m, "magnitude")
            g.magnitude = m
        }
        guard g.direction.x.isFinite, g.direction.y.isFinite, g.magnitude <= PhysicsLimits.maxGravityMagnitude else {
            throw ProtocolError(.badValue, "gravity must be finite and of magnitude at most \(Int(PhysicsLimits.maxGravityMagnitude))")
        }
        gravity = g
        return [("dx", .number(g.direction.x)), ("dy", .number(g.direction.y)), ("magnitude", .number(g.magnitude))]
    }

    package func setCollisionMode(_ mode: CollisionModeName) -> AckFields {
        var c = collision
        c.mode = CollisionMode(rawValue: mode.rawValue) ?? .everything
        collision = c
        return [("mode", .string(mode.rawValue))]
    }

    package func spawn(shape: ShapeName, width w: Double, height h: Double, x: Double, y: Double, angle: Double?,
               vx: Double?, vy: Double?, patch: PropertyPatch) throws(ProtocolError) -> AckFields {
        guard animator.itemCount < maxBodies else {
            throw ProtocolError(.badValue, "the world is full (\(maxBodies) items)")
        }
        guard (0...width).contains(x), (0...height).contains(y) else {
            throw ProtocolError(.badValue, "spawn point (\(x), \(y)) is outside the world 0..\(Int(width)) x 0..\(Int(height))")
        }
        guard w <= width, h <= height else {
            throw ProtocolError(.badValue, "an item of \(w) x \(h) does not fit in the world")
        }
        try PhysicsLimits.checkSpeed(vx, "vx")
        try PhysicsLimits.checkSpeed(vy, "vy")
        try PhysicsLimits.checkSpeed(Vec2(vx ?? 0, vy ?? 0).length, "vx")
        var p = ItemProperties()
        patch.apply(to: &p)
        do {
            let id = try spawn(shape: shape.itemShape, width: w, height: h, at: Vec2(x, y), angle: angle ?? 0,
                               velocity: Vec2(vx ?? 0, vy ?? 0), properties: p, color: patch.color?.lowercased())
            return [("body", .number(Double(id)))]
        } catch {
            throw ProtocolError(.badValue, "spawn rejected: \(error.protocolWords)")
        }
    }

    package func removeBody(_ id: Int) throws(ProtocolError) -> AckFields {
        try requireBody(id)
        remove(id)
        return [("body", .number(Double(id)))]
    }

    package func loadScene(_ name: String) throws(ProtocolError) -> AckFields {
        guard let scene = Scenes.named(name) else {
            throw ProtocolError(.badValue, "unknown scene \"\(name)\" (known: \(Scenes.names.joined(separator: ", ")))")
        }
        load(scene, name: name)
        return [("scene", .string(name))]
    }

    package func load(_ scene: (SharedWorld) -> Void, name: String) {
        clear(name: name)
        scene(self)
    }
}

extension PropertyPatch {
    package func apply(to p: inout ItemProperties) {
        if let v = elasticity { p.elasticity = v }
        if let v = friction { p.friction = v }
        if let v = density { p.density = v }
        if let v = resistance { p.resistance = v }
        if let v = angularResistance { p.angularResistance = v }
        if let v = allowsRotation { p.allowsRotation = v }
        if let v = anchored { p.anchored = v }
        if let v = charge { p.charge = v }
    }
}
