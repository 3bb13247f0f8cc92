/// UIAttachmentBehavior's pin attachment (iOS 9, a revolute joint): `item` and `otherItem` (or the world)
/// share the world point `point` (given when added; for an item–world pin moving it moves the pin) and turn
/// about it, their relative angle kept within `range` (radians from the angle when added; nil = free),
/// against `frictionTorque` (UIKit N·m: the largest torque friction opposes a turn with; 0 = none).
public struct PinAttachmentBehavior: Equatable, Sendable {
    public var item: ItemID
    public var otherItem: ItemID?
    public var point: Vec2
    public var range: ClosedRange<Double>?
    public var frictionTorque: Double

    public init(item: ItemID, otherItem: ItemID? = nil, point: Vec2, range: ClosedRange<Double>? = nil,
                frictionTorque: Double = 0) {
        self.item = item
        self.otherItem = otherItem
        self.point = point
        self.range = range
        self.frictionTorque = frictionTorque
    }
}
