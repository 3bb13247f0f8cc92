/// Island hooks called by the contact phase (Engine/PhysicsWorld+Contacts.swift). Placeholders in h-broad's
/// clone: h-sets implements them (persistent islands linked by touching contacts); on merge, keep h-sets' bodies.
extension PhysicsWorld {
    /// Contact `id`'s manifold gained its first point.
    mutating func contactBeganTouching(_ id: Int32) {}

    /// Contact `id`'s manifold lost its last point, or the contact is being destroyed with points (it is still
    /// valid during the call).
    mutating func contactStoppedTouching(_ id: Int32) {}
}
