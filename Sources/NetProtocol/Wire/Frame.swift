/// A compact `frame` as decoded by clients (docs/PROTOCOL.md): integers instead of decimals, and only the
/// bodies whose rounded pose differs from the frame this connection received before (`base`).
public struct Frame: Equatable, Sendable {
    /// One listed body: `[id, x, y, angle]`, x and y in 1/100 pt, the angle in 1/1000 rad.
    public struct Body: Equatable, Sendable {
        public var id: Int
        public var x: Int64
        public var y: Int64
        public var angle: Int64

        public init(id: Int, x: Int64, y: Int64, angle: Int64) {
            self.id = id
            self.x = x
            self.y = y
            self.angle = angle
        }
    }

    public var tick: UInt64
    public var time: Double
    /// The tick of the frame this one is relative to; nil for a keyframe, which lists every body.
    public var base: UInt64?
    public var paused: Bool
    /// True while the world is held by `pause` (written only when true, as in snapshots).
    public var held = false
    public var clients: Int
    public var bodies: [Body]
    public var drags: [DragInfo]

    public init(tick: UInt64, time: Double, base: UInt64?, paused: Bool, clients: Int, bodies: [Body],
                drags: [DragInfo] = []) {
        self.tick = tick
        self.time = time
        self.base = base
        self.paused = paused
        self.clients = clients
        self.bodies = bodies
        self.drags = drags
    }

    public var isKeyframe: Bool { base == nil }
}
