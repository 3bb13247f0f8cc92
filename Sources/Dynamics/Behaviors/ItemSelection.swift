/// Which items a gravity or collision behavior acts on. `.all` includes items added later.
public enum ItemSelection: Equatable, Sendable {
    case all
    case only([ItemID])

    func contains(_ id: ItemID) -> Bool {
        switch self {
        case .all: return true
        case .only(let ids): return ids.contains(id)
        }
    }

    /// The selection without `id` (used when an item is removed).
    func removing(_ id: ItemID) -> ItemSelection {
        switch self {
        case .all: return .all
        case .only(let ids): return .only(ids.filter { $0 != id })
        }
    }
}
