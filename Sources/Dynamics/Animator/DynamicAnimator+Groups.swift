/// A group as stored by the animator: its items and the welds that hold them together.
struct GroupEntry {
    var id: BehaviorID
    var items: [ItemID]
    var welds: [BehaviorID]
    /// The members' places in the composite (DynamicAnimator+GroupRigidity.swift).
    var frame: GroupFrame
}

/// Item groups (UIDynamicItemGroup, docs/UIKIT.md): welds to the first item plus a per-body group tag that
/// keeps the members from colliding with each other.
extension DynamicAnimator {
    public func add(_ g: ItemGroupBehavior) throws(DynamicsError) -> BehaviorID {
        guard g.items.count >= 2 else { throw .invalidValue("a group needs at least 2 items") }
        guard Set(g.items).count == g.items.count else { throw .invalidValue("a group lists an item twice") }
        try checkItems(g.items)
        for id in g.items where group(of: id) != nil { throw .invalidValue("item \(id) is already in group \(group(of: id)!)") }
        let id = nextBehaviorID
        nextBehaviorID += 1
        var welds: [BehaviorID] = []
        for item in g.items.dropFirst() {
            welds.append(try add(FixedAttachmentBehavior(item: item, otherItem: g.items[0])))
        }
        groups.append(GroupEntry(id: id, items: g.items, welds: welds, frame: groupFrame(of: g.items)))
        for item in g.items { if let i = indexOf[item] { world.bodies[i].group = Int32(truncatingIfNeeded: id) } }
        world.filtersDirty = true
        return id
    }

    /// The items of group `id`, or nil.
    public func groupItems(_ id: BehaviorID) -> [ItemID]? { groups.first { $0.id == id }?.items }

    /// Group ids in insertion order.
    public var groupIDs: [BehaviorID] { groups.map(\.id) }

    /// The group item `id` belongs to.
    public func group(of item: ItemID) -> BehaviorID? { groups.first { $0.items.contains(item) }?.id }

    /// Splits group `id` again: its items move on their own from their current poses.
    @discardableResult public func removeGroup(_ id: BehaviorID) -> Bool {
        guard let k = groups.firstIndex(where: { $0.id == id }) else { return false }
        let g = groups.remove(at: k)
        for weld in g.welds { removeJointAttachment(weld) }
        for item in g.items { if let i = indexOf[item] { world.bodies[i].group = 0; touched(i) } }
        world.filtersDirty = true
        return true
    }

    /// When a member is removed, the rest of its group is regrouped from its current poses (or dissolved
    /// when fewer than two remain). Called before the item's joint attachments are dropped.
    func dropFromGroups(_ item: ItemID) {
        guard let g = groups.first(where: { $0.items.contains(item) }) else { return }
        removeGroup(g.id)
        let rest = g.items.filter { $0 != item && indexOf[$0] != nil }
        if rest.count >= 2, let regrouped = try? add(ItemGroupBehavior(items: rest)) {
            // Keep the group's id: clients know it by that.
            if let k = groups.firstIndex(where: { $0.id == regrouped }) {
                groups[k].id = g.id
                for member in rest { if let i = indexOf[member] { world.bodies[i].group = Int32(truncatingIfNeeded: g.id) } }
                world.filtersDirty = true
            }
        }
    }
}
