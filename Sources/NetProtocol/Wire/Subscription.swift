/// What a connection receives besides answers (docs/PROTOCOL.md, `subscribe`): contact events, notices of
/// other clients' structural commands, and which kind of snapshot at which rate.
public struct Subscription: Equatable, Sendable {
    /// How world state reaches a connection: `snapshot` messages, compact `frame` messages, packed frames
    /// (binary WebSocket messages, or `packed` lines over TCP), or nothing
    /// (wire name `none`; the case is `off` so that it never reads as `Optional.none`).
    public enum Snapshots: String, Sendable, CaseIterable {
        case full, compact, packed
        case off = "none"
    }

    public var contacts: Bool
    public var notices: Bool
    public var snapshots: Snapshots
    /// Snapshots per second for this connection; nil means the server's `snapshot_hz`.
    public var snapshotHz: Double?

    public init(contacts: Bool = false, notices: Bool = true, snapshots: Snapshots = .full, snapshotHz: Double? = nil) {
        self.contacts = contacts
        self.notices = notices
        self.snapshots = snapshots
        self.snapshotHz = snapshotHz
    }
}

/// A `subscribe` command's fields: each one present changes that setting, the others stay as they were.
public struct SubscriptionChange: Equatable, Sendable {
    public var contacts: Bool?
    public var notices: Bool?
    public var snapshots: Subscription.Snapshots?
    /// Validated by the decoder as a finite number >= 1; the server caps it at its own rate.
    public var snapshotHz: Double?

    public init(contacts: Bool? = nil, notices: Bool? = nil, snapshots: Subscription.Snapshots? = nil, snapshotHz: Double? = nil) {
        self.contacts = contacts
        self.notices = notices
        self.snapshots = snapshots
        self.snapshotHz = snapshotHz
    }

    /// The subscription after this change, with `snapshot_hz` capped at `maxHz`.
    public func applied(to current: Subscription, maxHz: Double) -> Subscription {
        var next = current
        if let contacts { next.contacts = contacts }
        if let notices { next.notices = notices }
        if let snapshots { next.snapshots = snapshots }
        if let snapshotHz { next.snapshotHz = min(snapshotHz, maxHz) }
        return next
    }
}
