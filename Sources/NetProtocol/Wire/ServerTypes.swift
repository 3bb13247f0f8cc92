/// The `welcome` line: the first line on every accepted connection.
public struct Welcome: Equatable, Sendable {
    public var protocolVersion: Int
    public var client: Int
    public var server: String
    public var worldWidth: Double
    public var worldHeight: Double
    public var tickHz: Double
    public var snapshotHz: Double
    public var authRequired: Bool
    /// The room the connection starts in (docs/PROTOCOL.md, Rooms); nil from a server without rooms.
    public var room: String?
    /// The port of the server's HTTP listener (its page, `/ws`, `/rooms`), as bound; nil when the server
    /// listens for no HTTP (`--no-http`) or predates the field (docs/PROTOCOL.md, welcome).
    public var httpPort: Int?

    public init(protocolVersion: Int = 1, client: Int, server: String, worldWidth: Double, worldHeight: Double,
                tickHz: Double, snapshotHz: Double, authRequired: Bool, room: String? = nil, httpPort: Int? = nil) {
        self.room = room
        self.httpPort = httpPort
        self.protocolVersion = protocolVersion
        self.client = client
        self.server = server
        self.worldWidth = worldWidth
        self.worldHeight = worldHeight
        self.tickHz = tickHz
        self.snapshotHz = snapshotHz
        self.authRequired = authRequired
    }
}

/// One item of a `scene`: its shape, size and item properties. A polygon adds `"points":[[x,y],..]`.
public struct BodyInfo: Equatable, Sendable {
    public var id: Int
    public var shape: ShapeName
    public var width: Double
    public var height: Double
    public var elasticity: Double
    public var friction: Double
    public var density: Double
    public var resistance: Double
    public var angularResistance: Double
    public var allowsRotation: Bool
    public var anchored: Bool
    public var color: String
    /// Electric/magnetic charge (docs/UIKIT.md, Fields).
    public var charge: Double

    public init(id: Int, shape: ShapeName, width: Double, height: Double, elasticity: Double = 0, friction: Double = 0,
                density: Double = 1, resistance: Double = 0, angularResistance: Double = 0, allowsRotation: Bool = true,
                anchored: Bool = false, color: String, charge: Double = 0) {
        self.id = id
        self.shape = shape
        self.width = width
        self.height = height
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
        self.angularResistance = angularResistance
        self.allowsRotation = allowsRotation
        self.anchored = anchored
        self.color = color
        self.charge = charge
    }
}

/// A named boundary: a polyline, closed into a polygon when `closed`.
public struct BoundaryInfo: Equatable, Sendable {
    public var id: String
    public var points: [Point]
    public var closed: Bool

    public init(id: String, points: [Point], closed: Bool) {
        self.id = id
        self.points = points
        self.closed = closed
    }
}

/// A scene attachment: `body` at `offset` (item frame) to a fixed `anchor` or to `toBody` at `toOffset`.
/// `id` is what `anchor` and `detach` name; `kind` says which of the kind parameters apply (docs/PROTOCOL.md).
public struct AttachmentInfo: Equatable, Sendable {
    public var id: Int?
    public var kind: AttachmentKindName = .distance
    public var axis: DirectionVector?
    public var range: ValueRange?
    public var point: Point?
    public var frictionTorque: Double?
    public var body: Int
    public var anchor: Point?
    public var toBody: Int?
    public var offset: Point
    public var toOffset: Point?
    public var length: Double
    public var frequency: Double
    public var damping: Double

    public init(body: Int, anchor: Point? = nil, toBody: Int? = nil, offset: Point, toOffset: Point? = nil,
                length: Double, frequency: Double, damping: Double) {
        self.body = body
        self.anchor = anchor
        self.toBody = toBody
        self.offset = offset
        self.toOffset = toOffset
        self.length = length
        self.frequency = frequency
        self.damping = damping
    }
}

/// A scene snap behavior.
public struct SnapInfo: Equatable, Sendable {
    public var body: Int
    public var point: Point
    public var damping: Double

    public init(body: Int, point: Point, damping: Double) {
        self.body = body
        self.point = point
        self.damping = damping
    }
}

/// The gravity behavior as sent in `scene`: the gravity vector (dx, dy), whose length is `magnitude` (1 = 1000 pt/s²).
public struct GravityInfo: Equatable, Sendable {
    public var dx: Double
    public var dy: Double
    public var magnitude: Double

    public init(dx: Double, dy: Double, magnitude: Double) {
        self.dx = dx
        self.dy = dy
        self.magnitude = magnitude
    }
}

/// The world's structure, as sent in `scene`.
public struct SceneInfo: Equatable, Sendable {
    public var name: String
    public var gravity: GravityInfo
    public var collisionMode: CollisionModeName
    public var bodies: [BodyInfo]
    public var boundaries: [BoundaryInfo]
    public var attachments: [AttachmentInfo]
    public var snaps: [SnapInfo]
    public var fields: [FieldInfo] = []
    public var bounds = BoundsInfo()
    public var groups: [GroupInfo] = []
    /// One sentence for people: what the scene shows and what to try (nil: the server sent none).
    public var caption: String?

    public init(name: String, gravity: GravityInfo, collisionMode: CollisionModeName, bodies: [BodyInfo],
                boundaries: [BoundaryInfo] = [], attachments: [AttachmentInfo] = [], snaps: [SnapInfo] = []) {
        self.name = name
        self.gravity = gravity
        self.collisionMode = collisionMode
        self.bodies = bodies
        self.boundaries = boundaries
        self.attachments = attachments
        self.snaps = snaps
    }
}

/// One item's motion in a snapshot. A plain value type meant for contiguous arrays.
public struct BodyState: Equatable, Sendable {
    public var id: Int
    public var x: Double
    public var y: Double
    public var angle: Double
    public var vx: Double
    public var vy: Double
    public var av: Double

    public init(id: Int, x: Double, y: Double, angle: Double, vx: Double = 0, vy: Double = 0, av: Double = 0) {
        self.id = id
        self.x = x
        self.y = y
        self.angle = angle
        self.vx = vx
        self.vy = vy
        self.av = av
    }
}

/// A client's drag as seen by everyone: the anchor (x, y) and the grab point in the item's frame.
public struct DragInfo: Equatable, Sendable {
    public var client: Int
    public var name: String
    public var body: Int
    public var x: Double
    public var y: Double
    public var offset: Point

    public init(client: Int, name: String, body: Int, x: Double, y: Double, offset: Point) {
        self.client = client
        self.name = name
        self.body = body
        self.x = x
        self.y = y
        self.offset = offset
    }
}

/// A `snapshot` as decoded by clients (the server writes them with `SnapshotEncoder`).
public struct Snapshot: Equatable, Sendable {
    public var tick: UInt64
    public var time: Double
    public var paused: Bool
    /// True while the world is held by `pause` (docs/PROTOCOL.md, time control).
    public var held = false
    public var clients: Int
    public var bodies: [BodyState]
    public var drags: [DragInfo]

    public init(tick: UInt64, time: Double, paused: Bool, clients: Int, bodies: [BodyState], drags: [DragInfo] = []) {
        self.tick = tick
        self.time = time
        self.paused = paused
        self.clients = clients
        self.bodies = bodies
        self.drags = drags
    }
}
