/// A pointer dragging an item (the pan gesture of seed recipe 2.4, made robust): the point `offset` of
/// `item` (from its center, in the item's frame) is pulled toward `target` by a stiff spring whose force is
/// bounded by the item's mass (docs/ENGINE.md, "Drag"). Because the force is bounded, boundaries, anchored
/// items, rigid attachments and snaps win against it: the item stops against them, never sinks into them,
/// and its velocity stays its real motion. Unobstructed, the grab point follows the target within a few
/// points. Update `target` to move the pointer.
public struct DragBehavior: Equatable, Sendable {
    public var item: ItemID
    public var offset: Vec2
    public var target: Vec2

    public init(item: ItemID, offset: Vec2 = .zero, target: Vec2) {
        self.item = item
        self.offset = offset
        self.target = target
    }

    func validate() throws(DynamicsError) {
        try checkCoordinate(offset, "drag offset")
        try checkCoordinate(target, "drag target")
    }
}
