import DynRoom
/// The fleet's keys in Redis and the Lua scripts that change them (docs/DEPLOY.md, The directory in Redis).
///
/// Every script that touches a lease compares its owner first, inside Redis (a script runs atomically), so a
/// server that stalled past its lease can never renew, overwrite the state of, or release a room another
/// server has claimed since.
enum ClusterScripts {
    /// `dyn:owner:NAME`: the lease, `"HOST:PORT HTTP_BASE"` of the owner, expiring after the lease time.
    static func ownerKey(_ room: String) -> String { "dyn:owner:\(room)" }
    /// `dyn:state:NAME`: the room's last saved state (docs/STATE.md), kept without expiry.
    static func stateKey(_ room: String) -> String { "dyn:state:\(room)" }
    /// `dyn:rooms`: a hash of every fleet room's summary (`clients bodies paused held scene`).
    static let roomsKey = "dyn:rooms"

    /// KEYS owner, state; ARGV me, lease ms. Claims a room nobody owns (or that this server already owns):
    /// `{1, state-or-nil}`; else `{0, owner}`.
    static let claim = """
        if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
          return {1, redis.call('GET', KEYS[2])}
        end
        local owner = redis.call('GET', KEYS[1])
        if owner == ARGV[1] then
          redis.call('PEXPIRE', KEYS[1], ARGV[2])
          return {1, redis.call('GET', KEYS[2])}
        end
        return {0, owner}
        """

    /// KEYS owner, rooms; ARGV me, lease ms, name, summary. Renews this server's lease, or takes the room
    /// again when nobody holds it (re-registration after Redis lost its keys): 1; another owner: its value.
    static let renew = """
        local owner = redis.call('GET', KEYS[1])
        if owner == ARGV[1] then
          redis.call('PEXPIRE', KEYS[1], ARGV[2])
        elseif not owner then
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        else
          return owner
        end
        redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
        return 1
        """

    /// KEYS owner, state, rooms; ARGV me, state, name, summary. Writes the state only while this server owns
    /// the room: 1, else 0.
    static let save = """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        redis.call('SET', KEYS[2], ARGV[2])
        redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
        return 1
        """

    /// KEYS owner; ARGV me. Deletes the lease only while this server holds it: 1, else 0.
    static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// KEYS rooms. Every fleet room as a flat list: name, summary, owner ('' when nobody owns it).
    static let list = """
        local rooms = redis.call('HGETALL', KEYS[1])
        local out = {}
        for i = 1, #rooms, 2 do
          out[#out + 1] = rooms[i]
          out[#out + 1] = rooms[i + 1]
          out[#out + 1] = redis.call('GET', 'dyn:owner:' .. rooms[i]) or ''
        end
        return out
        """

    /// Every script, loaded into Redis at each connect (`SCRIPT LOAD`) and run by its SHA1.
    static let all = [claim, renew, save, release, list]

    /// A room's summary as stored in `dyn:rooms`.
    static func encode(_ summary: RoomSummary) -> String {
        "\(summary.clients) \(summary.bodies) \(summary.paused ? 1 : 0) \(summary.held ? 1 : 0) \(summary.scene)"
    }

    /// A summary read back from `dyn:rooms` (nil when it is not one).
    static func decode(name: String, _ text: String) -> RoomSummary? {
        let parts = text.split(separator: " ", maxSplits: 4)
        guard parts.count == 5, let clients = Int(parts[0]), let bodies = Int(parts[1]) else { return nil }
        return RoomSummary(name: name, clients: clients, bodies: bodies, scene: String(parts[4]),
                           paused: parts[2] == "1", held: parts[3] == "1", loaded: false)
    }
}
