/// UIAttachmentBehavior's sliding attachment (iOS 9, a prismatic joint): `item` keeps its angle relative to
/// `otherItem` (or the world) and moves only along `axis` (world frame when added, then turning with the
/// other item), through `anchor` for an item–world slide; `range` limits the travel in points from where it
/// was when added (it contains 0; nil = unlimited).
public struct SlidingAttachmentBehavior: Equatable, Sendable {
    public var item: ItemID
    public var otherItem: ItemID?
    /// A world point on the rail (item–world slides only); moving it moves the rail.
    public var anchor: Vec2?
    public var axis: Vec2
    public var range: ClosedRange<Double>?

    public init(item: ItemID, otherItem: ItemID? = nil, anchor: Vec2? = nil, axis: Vec2, range: ClosedRange<Double>? = nil) {
        self.item = item
        self.otherItem = otherItem
        self.anchor = anchor
        self.axis = axis
        self.range = range
    }
}
