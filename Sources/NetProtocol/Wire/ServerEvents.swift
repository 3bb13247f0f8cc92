/// A `contact` message (docs/PROTOCOL.md): a contact of item `a` with item `b` or a named boundary began or
/// ended during tick `tick`. Sent only to connections subscribed with `contacts: true`. `point` is present
/// exactly when `phase` is `began`; `dropped` (when present) counts the events of earlier ticks that did not
/// fit into the per-tick cap.
public struct ContactReport: Equatable, Sendable {
    public enum Phase: String, Sendable, CaseIterable {
        case began, ended
    }

    /// The other side of a contact: an item, or a boundary by name (`bounds` for the reference bounds).
    public enum Partner: Equatable, Sendable {
        case body(Int)
        case boundary(String)
    }

    public var phase: Phase
    public var tick: UInt64
    public var a: Int
    public var partner: Partner
    public var point: Point?
    public var dropped: Int?

    public init(phase: Phase, tick: UInt64, a: Int, partner: Partner, point: Point? = nil, dropped: Int? = nil) {
        self.phase = phase
        self.tick = tick
        self.a = a
        self.partner = partner
        self.point = point
        self.dropped = dropped
    }
}

/// A `notice` message (docs/PROTOCOL.md): client `client` (called `name`) sent a command that changed the
/// world's structure; `summary` says what it did in a few words.
public struct Notice: Equatable, Sendable {
    public var client: Int
    public var name: String
    public var command: String
    public var summary: String

    public init(client: Int, name: String, command: String, summary: String) {
        self.client = client
        self.name = name
        self.command = command
        self.summary = summary
    }
}

extension ServerMessage {
    static func write(_ c: ContactReport, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("contact")
        w.key("phase"); w.string(c.phase.rawValue)
        w.key("tick"); w.uint(c.tick)
        w.key("a"); w.int(c.a)
        switch c.partner {
        case let .body(b): w.key("b"); w.int(b)
        case let .boundary(name): w.key("boundary"); w.string(name)
        }
        if let point = c.point { w.key("point"); ClientCommandEncoder.writePoint(point, into: &w) }
        if let dropped = c.dropped { w.key("dropped"); w.int(dropped) }
        w.endObject()
    }

    static func write(_ n: Notice, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("notice")
        w.key("client"); w.int(n.client)
        w.key("name"); w.string(n.name)
        w.key("command"); w.string(n.command)
        w.key("summary"); w.string(n.summary)
        w.endObject()
    }
}

extension ServerMessageDecoder {
    func contact(_ f: Fields) throws(MalformedServerMessage) -> ContactReport {
        guard let phase = ContactReport.Phase(rawValue: try f.string("phase")) else { throw MalformedServerMessage() }
        let partner: ContactReport.Partner
        if f.has("b") {
            partner = .body(try f.int("b"))
        } else {
            partner = .boundary(try f.string("boundary"))
        }
        return ContactReport(phase: phase, tick: try f.tick("tick"), a: try f.int("a"), partner: partner,
                             point: f.has("point") ? try f.point("point") : nil,
                             dropped: f.has("dropped") ? try f.int("dropped") : nil)
    }

    func notice(_ f: Fields) throws(MalformedServerMessage) -> Notice {
        Notice(client: try f.int("client"), name: try f.string("name"), command: try f.string("command"),
               summary: try f.string("summary"))
    }
}
