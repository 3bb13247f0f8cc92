/// UIAttachmentBehavior's fixed attachment (iOS 9): welds `item` to `otherItem`, or to the world at `anchor`,
/// so that their relative pose stays what it was when the weld was added. Moving `anchor` carries the item
/// along, turned as it was.
public struct FixedAttachmentBehavior: Equatable, Sendable {
    public var item: ItemID
    public var otherItem: ItemID?
    /// The world point the item is welded to (item–world welds only).
    public var anchor: Vec2?

    public init(item: ItemID, otherItem: ItemID? = nil, anchor: Vec2? = nil) {
        self.item = item
        self.otherItem = otherItem
        self.anchor = anchor
    }
}
