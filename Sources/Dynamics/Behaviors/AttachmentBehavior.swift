/// UIAttachmentBehavior: ties a point of `item` (offset from its center, in its frame) to a world `anchor`
/// or to a point of `otherItem`. `length` nil at add time becomes the current distance. `frequency` 0 makes
/// it rigid; > 0 makes it a spring with `damping` as the damping ratio (0...1). `.limit` is a rope (only a
/// maximum length), `.pin` makes the two points coincide (revolute). Update `anchor` to drag the item.
public struct AttachmentBehavior: Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        case distance
        case limit
        case pin
    }

    public var item: ItemID
    public var offset: Vec2
    public var anchor: Vec2?
    public var otherItem: ItemID?
    public var otherOffset: Vec2
    public var length: Double?
    public var frequency: Double = 0
    public var damping: Double = 0
    public var kind: Kind = .distance

    public init(item: ItemID, offset: Vec2 = .zero, anchor: Vec2? = nil, otherItem: ItemID? = nil,
                otherOffset: Vec2 = .zero, length: Double? = nil, frequency: Double = 0, damping: Double = 0,
                kind: Kind = .distance) {
        self.item = item
        self.offset = offset
        self.anchor = anchor
        self.otherItem = otherItem
        self.otherOffset = otherOffset
        self.length = length
        self.frequency = frequency
        self.damping = damping
        self.kind = kind
    }

    /// Item–anchor attachment.
    public static func anchored(_ item: ItemID, offset: Vec2 = .zero, to anchor: Vec2) -> AttachmentBehavior {
        AttachmentBehavior(item: item, offset: offset, anchor: anchor)
    }

    /// Item–item attachment.
    public static func items(_ a: ItemID, offset: Vec2 = .zero, _ b: ItemID,
                             offset otherOffset: Vec2 = .zero) -> AttachmentBehavior {
        AttachmentBehavior(item: a, offset: offset, otherItem: b, otherOffset: otherOffset)
    }

    func validate() throws(DynamicsError) {
        try checkCoordinate(offset, "attachment offset")
        try checkCoordinate(otherOffset, "attachment other offset")
        switch (anchor, otherItem) {
        case (let a?, nil): try checkCoordinate(a, "attachment anchor")
        case (nil, let o?): guard o != item else { throw .invalidValue("an item cannot attach to itself") }
        default: throw .invalidValue("an attachment needs exactly one of an anchor point and another item")
        }
        if let l = length {
            guard l.isFinite, l >= 0, l <= 4 * maxCoordinate else { throw .invalidValue("length must be >= 0") }
        }
        guard frequency.isFinite, frequency >= 0 else { throw .invalidValue("frequency must be finite and >= 0") }
        try checkUnit(damping, "damping")
    }
}
