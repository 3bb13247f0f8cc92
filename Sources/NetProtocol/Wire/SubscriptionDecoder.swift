/// Reads a `subscribe` command (or the `subscribe` object inside `hello`): every field optional, each
/// checked for its type and range.
struct SubscriptionDecoder {
    let fields: FieldReader

    func decode() throws(ProtocolError) -> SubscriptionChange {
        var change = SubscriptionChange()
        change.contacts = try fields.optionalBool("contacts")
        change.notices = try fields.optionalBool("notices")
        change.snapshots = try fields.optionalName("snapshots", as: Subscription.Snapshots.self)
        if let hz = try fields.optionalNumber("snapshot_hz") {
            guard hz >= 1 else { throw fields.invalid("snapshot_hz", "must be >= 1") }
            change.snapshotHz = hz
        }
        return change
    }
}

extension ClientCommandEncoder {
    static func writeSubscription(_ change: SubscriptionChange, into w: inout JSONWriter) {
        if let contacts = change.contacts { w.key("contacts"); w.bool(contacts) }
        if let notices = change.notices { w.key("notices"); w.bool(notices) }
        if let snapshots = change.snapshots { w.key("snapshots"); w.string(snapshots.rawValue) }
        if let hz = change.snapshotHz { w.key("snapshot_hz"); w.number(hz) }
    }
}
