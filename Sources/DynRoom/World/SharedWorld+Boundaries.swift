import Dynamics
import NetProtocol

/// `boundary` and `bounds` (docs/PROTOCOL.md): named polylines and the reference bounds of the world-wide
/// collision behavior.
extension SharedWorld {
    package func setBoundary(name: String, points: [Point], closed: Bool) throws(ProtocolError) -> AckFields {
        var c = collision
        c.addBoundary(id: name, points: points.map(Vec2.init), closed: closed)
        do { try animator.update(collisionID, c) } catch {
            throw ProtocolError(.badValue, "boundary rejected: \(error.protocolWords)")
        }
        structureChanged = true
        return [("boundary", .string(name))]
    }

    package func removeBoundary(name: String) throws(ProtocolError) -> AckFields {
        var c = collision
        guard c.removeBoundary(id: name) else {
            throw ProtocolError(.badValue, "field \"boundary\": no boundary named \(quotedName(name))")
        }
        collision = c
        return [("boundary", .string(name))]
    }

    package func setBounds(enabled: Bool?, insets: BoundsInsets?) throws(ProtocolError) -> AckFields {
        var c = collision
        if let enabled { c.translatesReferenceBoundsIntoBoundary = enabled }
        if let i = insets {
            guard width - i.left - i.right > 0, height - i.top - i.bottom > 0 else {
                throw ProtocolError(.badValue, "field \"insets\" leaves no room inside the world (\(Int(width)) x \(Int(height)))")
            }
            c.boundaryInsets = EdgeInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
        }
        do { try animator.update(collisionID, c) } catch {
            throw ProtocolError(.badValue, "bounds rejected: \(error.protocolWords)")
        }
        structureChanged = true
        let b = boundsInfo
        return [("enabled", .bool(b.enabled))]
    }

    package var boundsInfo: BoundsInfo {
        let c = collision
        let i = c.boundaryInsets
        return BoundsInfo(enabled: c.translatesReferenceBoundsIntoBoundary,
                          insets: BoundsInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right))
    }

    /// `velocity`: adds to (or with `add: false` sets) the item's velocities; the parts not given stay.
    package func velocity(body: Int, vx: Double?, vy: Double?, av: Double?, add: Bool) throws(ProtocolError) -> AckFields {
        try requireBody(body)
        try PhysicsLimits.checkSpeed(vx, "vx")
        try PhysicsLimits.checkSpeed(vy, "vy")
        try PhysicsLimits.checkAngularSpeed(av, "av")
        guard let item = animator.item(body) else { throw ProtocolError(.unknownBody, "no body with id \(body)") }
        var dv = Vec2(vx ?? 0, vy ?? 0)
        var dw = av ?? 0
        if !add {
            dv = Vec2(vx.map { $0 - item.velocity.x } ?? 0, vy.map { $0 - item.velocity.y } ?? 0)
            dw = av.map { $0 - item.angularVelocity } ?? 0
        }
        do {
            if dv != .zero || vx != nil || vy != nil { try animator.addLinearVelocity(dv, to: body) }
            if av != nil { try animator.addAngularVelocity(dw, to: body) }
        } catch {
            throw ProtocolError(.badValue, "velocity rejected: \(error.protocolWords)")
        }
        guard let after = animator.item(body) else { return [("body", .number(Double(body)))] }
        return [("body", .number(Double(body))), ("vx", .number(after.velocity.x)), ("vy", .number(after.velocity.y)),
                ("av", .number(after.angularVelocity))]
    }

    private func quotedName(_ name: String) -> String { "\"\(name)\"" }
}
