/// Items that left the world for good: a world whose every moving item has fallen (or been thrown) out of the
/// reference rectangle and is not coming back would otherwise run forever, its items falling out of sight.
/// With `departedMargin` set, such a world pauses like a world at rest (docs/ENGINE.md, "Departed items").
///
/// An awake item has departed when all of these hold:
/// - its whole shape lies more than `departedMargin` points outside the rectangle `0…width × 0…height`, on
///   at least one side;
/// - on that side it moves away (or not at all) and its gravity pulls it away (or not at all), so nothing
///   that is merely thrown past the edge and falls back counts;
/// - nothing holds it: no attachment, snap, drag, weld, slide or pin names it.
/// Fields and continuous pushes can pull an item back in ways this does not follow, so while the animator has
/// a field or an active continuous push of nonzero force nothing counts as departed.
///
/// Guarantees: with `departedMargin == nil` (the default) stepping is exactly as before. Departed items keep
/// their velocity while paused: any mutation resumes the animator and they move on from where they were.
extension DynamicAnimator {
    /// true when the animator has awake items and every one of them has departed.
    func everyAwakeItemDeparted(margin: Double) -> Bool {
        guard world.awakeCount > 0, fields.isEmpty, !hasActiveContinuousPush else { return false }
        for i in world.awakeBodies where !hasDeparted(world.bodies[Int(i)], margin: margin) { return false }
        for i in world.awakeBodies where isHeld(i) { return false }
        return true
    }

    private func hasDeparted(_ b: Body, margin: Double) -> Bool {
        let reach = b.boundingRadius + b.localCentroid.length + margin
        let c = b.center, v = b.velocity, g = b.gravity
        if c.y - reach > height && v.y >= 0 && g.y >= 0 { return true }
        if c.y + reach < 0 && v.y <= 0 && g.y <= 0 { return true }
        if c.x - reach > width && v.x >= 0 && g.x >= 0 { return true }
        if c.x + reach < 0 && v.x <= 0 && g.x <= 0 { return true }
        return false
    }

    private func isHeld(_ i: Int32) -> Bool {
        world.joints.contains { $0.bodyA == i || $0.bodyB == i }
            || world.mouseJoints.contains { $0.body == i }
            || world.constraintJoints.contains { $0.bodyA == i || $0.bodyB == i }
    }

    private var hasActiveContinuousPush: Bool {
        behaviors.contains { b in
            guard case .push(_, let p) = b else { return false }
            return p.active && p.mode == .continuous && p.pushDirection != .zero
        }
    }
}
