/// UIDynamicItemBehavior: applies `properties` to each of its items when it is added or updated.
public struct DynamicItemBehavior: Equatable, Sendable {
    public var items: [ItemID]
    public var properties: ItemProperties

    public init(items: [ItemID], properties: ItemProperties = ItemProperties()) {
        self.items = items
        self.properties = properties
    }
}
