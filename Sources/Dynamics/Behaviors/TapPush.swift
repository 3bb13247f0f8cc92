/// The seed's tap-push recipe (2.3): a tap at `tap` on an item centred at `itemCenter` pushes the item toward
/// the tap with angle `atan2(P.y − C.y, P.x − C.x)` and magnitude `distance(P, C) / 200`.
public func tapPush(at tap: Vec2, itemCenter: Vec2) -> (angle: Double, magnitude: Double) {
    let d = tap - itemCenter
    return (arcTangent2(d.y, d.x), d.length / 200)
}
