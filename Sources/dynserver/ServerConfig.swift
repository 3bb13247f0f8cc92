import DynRoom
import Dynamics
import NetProtocol

/// Everything a server run is configured with (flags of README.md, with their defaults).
struct ServerConfig: Sendable {
    var host = "127.0.0.1"
    var port = 7700
    /// The HTTP/WebSocket port (`--http-port`; default the TCP port + 1, 0 any free port); nil: `--no-http`.
    var httpPort: Int? = 7701
    var worldWidth = 800.0
    var worldHeight = 600.0
    var tickHz = 60.0
    var snapshotHz = 30.0
    var scene = "default"
    var token: String?
    var adminToken: String?
    var maxClients = 256
    var maxLineBytes = 65536
    var rate = 120.0
    var burst = 240.0
    /// A client whose writes make no progress for this long is disconnected.
    var stallTimeoutMs: UInt64 = 10_000
    /// A client holding more unsent bytes than this is disconnected.
    var maxOutboxBytes = 8 * 1024 * 1024
    var maxBodies = 5000
    /// Start held (docs/PROTOCOL.md, `pause`).
    var held = false
    /// SO_SNDBUF per client: large enough for several snapshots of a big world, small enough that a stalled
    /// client's stale snapshots are not buffered megabytes deep where they can no longer be replaced.
    var sendBufferBytes = 256 * 1024

    /// `--state FILE`: where the world is saved and restored from (nil: not saved).
    var statePath: String?
    /// `--state-interval`: seconds between saves.
    var stateIntervalS = 5.0

    /// `--state-dir DIR`: one state file per room, `DIR/NAME.json` (nil: rooms are not saved).
    var stateDir: String?
    /// `--room-idle-s`: a room other than `main` without members for this long is unloaded.
    var roomIdleS = 300.0
    /// `--max-rooms`: loaded rooms at most, `main` included.
    var maxRooms = 1000
    /// `--max-rooms-per-client`: rooms one connection may have created that are still loaded (admin token exempt).
    var maxRoomsPerClient = 16
    /// `--no-room-create`: a join to a room that does not exist is `forbidden`.
    var noRoomCreate = false
    /// `--threads`: worker threads that run the rooms' jobs (Server+RoomRuns.swift); the loop never steps a room.
    var threads = 1
    /// The parallel step's threads, `--threads` of them shared by every room's world (nil for one thread).
    var stepWorkers: StepWorkers?
    /// `--record DIR`: each room records itself to `DIR/NAME.ndjson` (nil: no recordings).
    var recordDir: String?
    /// `--hash-every`: ticks between the hash lines of a recording.
    var hashEvery: UInt64 = 60
    /// `--record-max-mb` in bytes: the size at which a recording rotates (nil: no cap).
    var recordMaxBytes: Int?

    /// `--cluster redis://HOST:PORT[/DB]`: the fleet's room directory (docs/DEPLOY.md); nil: a server alone.
    var cluster: RedisAddress?
    /// `--advertise HOST[:PORT]`: the TCP address other servers redirect to (port 0 or none: the bound port).
    var advertiseHost: String?
    var advertisePort = 0
    /// `--advertise-http URL`: the base of this server's pages in redirects (default http://HOST:HTTP_PORT).
    var advertiseHTTP: String?
    /// `--room-ttl-s`: a fleet room's saved state in Redis expires after this long without an owner.
    var roomTTLS = 7.0 * 86_400
    /// `--drain-s`: at SIGTERM, rooms with members keep running at most this long before they are saved,
    /// released and their members told `bye` with reason `draining`.
    var drainS = 30.0
    /// `AGONES_SDK_HTTP_PORT`: the Agones SDK sidecar's REST port on localhost (nil: not under Agones).
    var agonesPort: Int?

    /// What every room is configured with.
    var roomConfig: RoomConfig {
        var room = RoomConfig()
        room.worldWidth = worldWidth
        room.worldHeight = worldHeight
        room.tickHz = tickHz
        room.snapshotHz = snapshotHz
        room.maxBodies = maxBodies
        room.held = held
        room.recordDir = recordDir
        room.hashEvery = hashEvery
        room.recordMaxBytes = recordMaxBytes
        room.stepWorkers = stepWorkers
        return room
    }

    static let serverName = DynVersion.line("dynserver")
}
