/// What an item touched: another item or a named boundary. The reference bounds are reported as
/// `.boundary("bounds")`.
public enum ContactPartner: Sendable, Equatable {
    case item(ItemID)
    case boundary(String)
}

/// A contact that began or ended during a step. For item–item contacts the first id is the smaller one.
/// `point` is the world position of the contact when it began.
public enum ContactEvent: Sendable, Equatable {
    case began(ItemID, ContactPartner, point: Vec2)
    case ended(ItemID, ContactPartner)
}
