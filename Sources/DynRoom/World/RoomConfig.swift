import Dynamics

/// What a room is configured with: the world's size and limits and the rates (the server's flags of README.md
/// that reach a room; `ServerConfig.roomConfig` makes one).
///
/// Guarantees: a plain value, the same for every room of a server, readable from any thread.
public struct RoomConfig: Sendable {
    public var worldWidth = 800.0
    public var worldHeight = 600.0
    public var tickHz = 60.0
    public var snapshotHz = 30.0
    public var maxBodies = 5000
    /// Every room starts held (docs/PROTOCOL.md, `pause`).
    public var held = false
    /// `--record DIR`: each room records itself to `DIR/NAME.ndjson` (nil: no recordings).
    public var recordDir: String?
    /// `--hash-every`: ticks between the hash lines of a recording.
    public var hashEvery: UInt64 = 60
    /// `--record-max-mb`: a recording past this many bytes moves to `NAME.ndjson.1` and a new one starts (nil: no cap).
    public var recordMaxBytes: Int?
    /// The threads a big world's step splits its parallel stages over (docs/ENGINE.md, "Parallel step"), one
    /// set shared by every room: a room that finds it busy steps alone, with the same result. nil: each world
    /// steps on its room's worker alone.
    public var stepWorkers: StepWorkers?

    public init() {}
}
