/// `redirect` (docs/PROTOCOL.md, A fleet of servers): the room a join asked for is owned by another server of
/// the fleet; the client stays where it was and may connect to `host`:`port` (TCP) or open `http` (the
/// owner's page for the room) and join there.
public struct Redirect: Equatable, Sendable {
    public var room: String
    public var host: String
    public var port: Int
    public var http: String
    public var id: MessageID?

    public init(room: String, host: String, port: Int, http: String, id: MessageID? = nil) {
        self.room = room
        self.host = host
        self.port = port
        self.http = http
        self.id = id
    }

    func write(into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("redirect")
        w.key("room"); w.string(room)
        w.key("host"); w.string(host)
        w.key("port"); w.int(port)
        w.key("http"); w.string(http)
        if let id { w.key("id"); w.id(id) }
        w.endObject()
    }
}
