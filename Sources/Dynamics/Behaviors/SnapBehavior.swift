/// UISnapBehavior: pulls `item` to `point` like a damped spring and settles it at angle 0.
/// `damping` 0...1 (default 0.5): more damping, less overshoot. Snapped items ignore gravity, as in UIKit.
public struct SnapBehavior: Equatable, Sendable {
    public var item: ItemID
    public var point: Vec2
    public var damping: Double

    public init(item: ItemID, point: Vec2, damping: Double = 0.5) {
        self.item = item
        self.point = point
        self.damping = damping
    }

    func validate() throws(DynamicsError) {
        try checkCoordinate(point, "snap point")
        try checkUnit(damping, "damping")
    }
}
