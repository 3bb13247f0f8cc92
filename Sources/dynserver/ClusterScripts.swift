import DynRoom
/// The fleet's keys in Redis and the Lua scripts that change them (docs/DEPLOY.md, The directory in Redis).
///
/// Fencing: every claim of a room takes a new epoch (`dyn:epoch:NAME`, never smaller than Redis' clock in
/// ms, so it grows even after Redis lost its keys), and the lease (`dyn:owner:NAME`) names it. Renewals,
/// saves and releases carry the epoch and are refused inside the script (atomically) when it is not the
/// room's current one, so a server that stalled or was cut off can never renew, overwrite the state of, or
/// release a room claimed since. Every key a script touches is declared in KEYS.
///
/// The list is incremental: every change of a room's entry in `dyn:rooms` (a new owner or summary, a
/// release, a lapsed lease reaped) takes the next number of a change sequence, kept per name; a server
/// asks only for the names changed since the number it last saw. Per call, `renew` costs O(log rooms),
/// `list` O(log rooms + names changed since the caller's last list); a full read (HGETALL) happens only
/// on a server's first list, after Redis lost its keys, or when the caller missed more than
/// `goneKept` removals.
enum ClusterScripts {
    /// `dyn:owner:NAME`: the lease, `"EPOCH UNTIL_MS HOST:PORT HTTP_BASE"`; valid until UNTIL_MS on Redis'
    /// clock, the key itself kept 3 leases (so a lapsed lease still names its epoch).
    static func ownerKey(_ room: String) -> String { "dyn:owner:\(room)" }
    /// `dyn:epoch:NAME`: the room's current epoch.
    static func epochKey(_ room: String) -> String { "dyn:epoch:\(room)" }
    /// `dyn:state:NAME`: the room's last saved state (docs/STATE.md).
    static func stateKey(_ room: String) -> String { "dyn:state:\(room)" }
    /// `dyn:token:NAME`: the room's token (its creator's rights), saved with its state.
    static func tokenKey(_ room: String) -> String { "dyn:token:\(room)" }
    /// `dyn:rooms`: a hash of the live rooms: `"HOST:PORT HTTP_BASE\tSUMMARY"` (changed only when one of
    /// them changes, so a renewal of a room at rest writes nothing there).
    static let roomsKey = "dyn:rooms"
    /// `dyn:rooms:until`: a sorted set, each live room scored by the end of its lease (Redis ms); a lease
    /// that lapsed takes its room off the list (reaped by `list`).
    static let untilKey = "dyn:rooms:until"
    /// `dyn:rooms:changes` / `dyn:rooms:gone`: sorted sets of room names scored by the sequence number of
    /// their last change, listed or removed; `dyn:rooms:seq` the last number given, `dyn:rooms:gen` when the
    /// sequence started (Redis ms: a Redis that lost its keys starts another), `dyn:rooms:pruned` the
    /// newest removal forgotten (at most `goneKept` are kept).
    static let changesKey = "dyn:rooms:changes"
    static let goneKey = "dyn:rooms:gone"
    static let seqKey = "dyn:rooms:seq"
    static let genKey = "dyn:rooms:gen"
    static let prunedKey = "dyn:rooms:pruned"
    static let goneKept = 1000
    /// The keys of the list's change log, in the order the scripts take them.
    static let changeKeys = [changesKey, goneKey, seqKey, genKey, prunedKey]
    /// `dyn:clock`: Redis' time at the last heartbeat; `dyn:resumed`: when Redis came back from a stall or
    /// an empty restart (a lease that lapsed meanwhile cannot be claimed for one lease after that).
    static let clockKey = "dyn:clock"
    static let resumedKey = "dyn:resumed"

    /// Redis' clock in ms, and the stall check: a gap longer than ARGV[gap] since the last heartbeat
    /// (Redis slept: `DEBUG SLEEP`, SIGSTOP, a busy script) or an empty Redis in a fleet that knew it
    /// (ARGV[seen] == '1') starts a grace of one lease in which no lapsed lease can be claimed: the owners
    /// were cut off by Redis itself and renew first. KEYS[c] clock, KEYS[c+1] resumed.
    private static func clock(keys c: Int, seen: Int, gap: Int, lease: Int) -> String {
        """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local last = tonumber(redis.call('GET', KEYS[\(c)]) or '0')
        if (last == 0 and ARGV[\(seen)] == '1') or (last > 0 and now - last > tonumber(ARGV[\(gap)])) then
          redis.call('SET', KEYS[\(c + 1)], string.format('%d', now), 'PX', ARGV[\(lease)])
        end
        redis.call('SET', KEYS[\(c)], string.format('%d', now))
        local resumed = tonumber(redis.call('GET', KEYS[\(c + 1)]) or '0')
        """
    }

    /// `changed(name, listed, now)`: room `name`'s entry in `dyn:rooms` changed (`listed`) or left it; the
    /// name takes the next change number. KEYS[c]... are `changeKeys`.
    private static func changeLog(keys c: Int) -> String {
        """
        local function changed(name, listed, now)
          local s = redis.call('INCR', KEYS[\(c + 2)])
          if s == 1 then redis.call('SET', KEYS[\(c + 3)], string.format('%d', now)) end
          if listed then
            redis.call('ZREM', KEYS[\(c + 1)], name)
            redis.call('ZADD', KEYS[\(c)], s, name)
          else
            redis.call('ZREM', KEYS[\(c)], name)
            redis.call('ZADD', KEYS[\(c + 1)], s, name)
            if redis.call('ZCARD', KEYS[\(c + 1)]) > \(goneKept) then
              local oldest = redis.call('ZRANGE', KEYS[\(c + 1)], 0, 0, 'WITHSCORES')
              redis.call('ZREMRANGEBYRANK', KEYS[\(c + 1)], 0, 0)
              redis.call('SET', KEYS[\(c + 4)], oldest[2])
            end
          end
        end
        """
    }

    /// KEYS clock, resumed; ARGV seen, gap ms, lease ms. Every server's heartbeat (every 250 ms): Redis'
    /// clock in ms.
    static let heartbeat = clock(keys: 1, seen: 1, gap: 2, lease: 3) + "\nreturn now\n"

    /// KEYS owner, epoch, state, token, clock, resumed; ARGV me, lease ms, deadline (Redis ms), seen, gap ms.
    /// Claims a room whose lease is free or lapsed, unless Redis' clock is past the deadline (a claim that
    /// waited in a stalled Redis never takes effect late) or Redis just resumed:
    /// `{1, epoch, state|false, token|false, until}`; owned: `{0, "HOST:PORT HTTP_BASE"}`; refused: `{-1, why}`.
    static let claim = clock(keys: 5, seen: 4, gap: 5, lease: 2) + """

        if now > tonumber(ARGV[3]) then return {-1, 'late'} end
        local owner = redis.call('GET', KEYS[1])
        if owner then
          local untilMs, rest = string.match(owner, '^%d+ (%d+) (.*)$')
          if untilMs and tonumber(untilMs) > now then return {0, rest} end
        end
        if now < resumed + tonumber(ARGV[2]) then return {-1, 'resuming'} end
        local epoch = math.max(tonumber(redis.call('GET', KEYS[2]) or '0') + 1, now)
        local e = string.format('%d', epoch)
        local untilMs = string.format('%d', now + tonumber(ARGV[2]))
        redis.call('SET', KEYS[2], e)
        redis.call('SET', KEYS[1], e .. ' ' .. untilMs .. ' ' .. ARGV[1], 'PX', 3 * tonumber(ARGV[2]))
        return {1, e, redis.call('GET', KEYS[3]), redis.call('GET', KEYS[4]), untilMs}
        """

    /// KEYS owner, epoch, rooms, state, token, until, then `changeKeys`; ARGV epoch, me, lease ms, name,
    /// summary, ttl ms. Renews this
    /// epoch's lease, lapsed or not, while the room's epoch is still this one (after Redis lost its keys the
    /// epoch is taken back): `{1, until}`; another owner: `{0, "HOST:PORT HTTP_BASE"}`; the room was claimed
    /// since (its epoch moved on): `{-1}`.
    static let renew = changeLog(keys: 7) + """

        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local owner = redis.call('GET', KEYS[1])
        if owner then
          local e, rest = string.match(owner, '^(%d+) %d+ (.*)$')
          if e ~= ARGV[1] then return {0, rest or ''} end
        else
          local current = redis.call('GET', KEYS[2])
          if current and current ~= ARGV[1] then return {-1} end
          redis.call('SET', KEYS[2], ARGV[1])
        end
        local untilMs = string.format('%d', now + tonumber(ARGV[3]))
        redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. untilMs .. ' ' .. ARGV[2], 'PX', 3 * tonumber(ARGV[3]))
        redis.call('ZADD', KEYS[6], untilMs, ARGV[4])
        local entry = ARGV[2] .. '\\t' .. ARGV[5]
        if redis.call('HGET', KEYS[3], ARGV[4]) ~= entry then
          redis.call('HSET', KEYS[3], ARGV[4], entry)
          changed(ARGV[4], true, now)
        end
        redis.call('PEXPIRE', KEYS[4], ARGV[6])
        redis.call('PEXPIRE', KEYS[5], ARGV[6])
        return {1, untilMs}
        """

    /// KEYS owner, epoch, state, token; ARGV epoch, state, token ('' none), ttl ms. Writes the state (and
    /// token) only under the room's current epoch: 1, else 0.
    static let save = """
        local owner = redis.call('GET', KEYS[1])
        local e = owner and string.match(owner, '^(%d+) ')
        if e ~= ARGV[1] and (owner or redis.call('GET', KEYS[2]) ~= ARGV[1]) then return 0 end
        redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[4])
        if ARGV[3] ~= '' then redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[4]) end
        return 1
        """

    /// KEYS owner, rooms, epoch, state, token, until, then `changeKeys`; ARGV epoch, name, ttl ms. Ends
    /// this epoch's lease: the room leaves the live list and its saved state expires after the ttl unless
    /// claimed again: 1, else 0.
    static let release = changeLog(keys: 7) + """

        local owner = redis.call('GET', KEYS[1])
        if not owner or string.match(owner, '^(%d+) ') ~= ARGV[1] then return 0 end
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('DEL', KEYS[1])
        redis.call('ZREM', KEYS[6], ARGV[2])
        if redis.call('HDEL', KEYS[2], ARGV[2]) == 1 then changed(ARGV[2], false, now) end
        redis.call('PEXPIRE', KEYS[3], ARGV[3])
        redis.call('PEXPIRE', KEYS[4], ARGV[3])
        redis.call('PEXPIRE', KEYS[5], ARGV[3])
        return 1
        """

    /// KEYS rooms, until, then `changeKeys`, clock, resumed; ARGV last change number seen (-1: none), its
    /// sequence's gen, seen, gap ms, lease ms. First reaps up to 100 rooms whose lease lapsed (not during a
    /// resume grace, when the owners renew first), then answers `{now, gen, last number, full}` followed by
    /// name/entry pairs: with `full` '1' every listed room (the caller's copy is replaced), else only the
    /// names changed since the caller's number, a removed one with the entry ''.
    static let list = changeLog(keys: 3) + "\n" + clock(keys: 8, seen: 3, gap: 4, lease: 5) + """

        if now >= resumed + tonumber(ARGV[5]) then
          local dead = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. string.format('%d', now), 'LIMIT', 0, 100)
          for _, name in ipairs(dead) do
            redis.call('ZREM', KEYS[2], name)
            if redis.call('HDEL', KEYS[1], name) == 1 then changed(name, false, now) end
          end
        end
        local seq = tonumber(redis.call('GET', KEYS[5]) or '0')
        local gen = redis.call('GET', KEYS[6]) or ''
        local pruned = tonumber(redis.call('GET', KEYS[7]) or '0')
        local known = tonumber(ARGV[1])
        local out = {string.format('%d', now), gen, string.format('%d', seq)}
        if known < 0 or ARGV[2] ~= gen or known > seq or known < pruned then
          out[4] = '1'
          local rooms = redis.call('HGETALL', KEYS[1])
          for i = 1, #rooms do out[#out + 1] = rooms[i] end
        else
          out[4] = '0'
          local after = '(' .. ARGV[1]
          for _, name in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], after, '+inf')) do
            out[#out + 1] = name
            out[#out + 1] = redis.call('HGET', KEYS[1], name) or ''
          end
          for _, name in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], after, '+inf')) do
            out[#out + 1] = name
            out[#out + 1] = ''
          end
        end
        return out
        """

    /// Every script, loaded into Redis at each connect (`SCRIPT LOAD`) and run by its SHA1.
    static let all = [heartbeat, claim, renew, save, release, list]

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

    /// An entry of `dyn:rooms`: its owner value and its summary.
    static func decodeEntry(name: String, _ text: String) -> (owner: String, summary: RoomSummary)? {
        let parts = text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let summary = decode(name: name, String(parts[1])) else { return nil }
        return (String(parts[0]), summary)
    }
}
