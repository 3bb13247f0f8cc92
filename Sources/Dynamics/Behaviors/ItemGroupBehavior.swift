/// UIDynamicItemGroup: `items` (at least two, each in at most one group) move as one rigid composite, so
/// convex items make concave shapes. Each item keeps its id and reports its own pose; items of one group never
/// collide with each other. The composite is held together by welds from every item to the first one, made
/// with the poses the items have when the group is added, and projected after every step onto one rigid
/// motion (Animator/DynamicAnimator+GroupRigidity.swift), so its members never move against each other.
public struct ItemGroupBehavior: Equatable, Sendable {
    public var items: [ItemID]

    public init(items: [ItemID]) {
        self.items = items
    }
}
