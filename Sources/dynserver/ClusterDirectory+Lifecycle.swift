import DynRoom
import NetProtocol
import NetLoop

/// The rooms' lifecycles on this server (docs/ARCHITECTURE.md, The room lifecycle in a fleet): every change
/// of a fleet room's state here is one `RoomLifecycle` transition on the one table `lifecycles`, made in the
/// answer to the Redis command that decides it. A transition a late answer finds illegal (the room moved on
/// meanwhile) changes nothing.
extension ClusterDirectory {
    /// Whether room `name` may step and take commands here: false while it is fenced (its lease deadline
    /// passed without a confirmed renewal). Rooms outside the fleet (`main`) always may.
    func isActive(_ name: String) -> Bool {
        guard lifecycles[name] != nil else { return true }
        if lifecycles[name]!.checkDeadline(nowNs: EventLoop.hrtimeNs) { fenced(name) }
        return lifecycles[name]!.isActive
    }

    /// live → fenced for every room whose deadline passed (every 250 ms, besides each step and command).
    func checkDeadlines() {
        let now = EventLoop.hrtimeNs
        for name in lifecycles.keys.sorted() where lifecycles[name]!.checkDeadline(nowNs: now) { fenced(name) }
    }

    /// Rooms held here now for want of a confirmed renewal (dyn_fleet_rooms_fenced).
    var fencedRooms: Int {
        let now = EventLoop.hrtimeNs
        return lifecycles.values.filter { $0.isFenced(nowNs: now) }.count
    }

    private func fenced(_ name: String) {
        log.warning("room \(name): lease not renewed within \(RoomLifecycle.leaseMs - RoomLifecycle.marginMs) ms; held (no steps, commands unavailable) until Redis confirms a renewal")
    }

    // MARK: claiming

    /// Whether joining `name` needs the directory first: a valid room other than `main`, not loaded here and
    /// not claimed here already (a room being released may be claimed again: the release goes first).
    func mustClaim(_ name: String?) -> Bool {
        guard let name, name != Room.mainName, RoomName.isValid(name), !stopping, !server.draining else { return false }
        guard server.rooms[name] == nil else { return false }
        // live or fenced but not loaded: the join that took the lease is on its way (it finds the lease).
        return lifecycles[name]?.holdsLease != true
    }

    /// (none) → claiming, or one more waiter of a claim in flight: asks Redis who owns `name`, taking its
    /// lease (a new epoch) when nobody does; then `proceed` (the join, which now finds the lease) or, for
    /// `session`, a `redirect` or `unavailable` answer to the message `id`. The session's later lines wait
    /// until this is settled.
    func claim(_ name: String, for session: ClientSession, id: MessageID?, proceed: @escaping () -> Void) {
        guard problem == nil, let redisNow = redisNowMs else {
            session.reply(.error(ProtocolError(.unavailable, "the fleet's room directory (Redis) cannot be reached; try again soon", id: id)))
            return
        }
        holding.insert(session.id)
        let waiter: RoomLifecycle.Waiter = { [unowned self, weak session] outcome in
            guard let session else { return }
            self.holding.remove(session.id)
            if !session.closing {
                switch outcome {
                case .claimed:
                    proceed()
                case .ownedElsewhere(let owner):
                    if let redirect = self.redirect(name, ownerValue: owner, id: id) {
                        session.reply(.redirect(redirect))
                        self.server.metrics.fleetRedirected("join")
                    } else {
                        session.reply(.error(ProtocolError(.unavailable, "room \(name) has an owner this server cannot read", id: id)))
                    }
                case .unavailable(let why):
                    session.reply(.error(ProtocolError(.unavailable, why, id: id)))
                }
                session.flushReplies()
            }
            self.drain(session)
        }
        if lifecycles[name]?.wait(waiter) == true { return }
        guard lifecycles[name]?.holdsLease != true else { return waiter(.claimed) }
        // A room released here and claimed again: its release is already on the connection, ahead of this.
        lifecycles[name] = RoomLifecycle(claimFor: waiter)
        let sentNs = EventLoop.hrtimeNs
        eval(ClusterScripts.claim,
             keys: [ClusterScripts.ownerKey(name), ClusterScripts.epochKey(name), ClusterScripts.stateKey(name),
                    ClusterScripts.tokenKey(name), ClusterScripts.clockKey, ClusterScripts.resumedKey],
             [ownerValue, leaseArgument, String(redisNow + Self.claimWindowMs), seenRedis ? "1" : "0",
              String(Self.redisGapMs)]) { [weak self] reply in
            self?.claimAnswered(name, reply: reply, sentNs: sentNs)
        }
    }

    /// claiming → live (claimed) or claiming → gone (owned elsewhere, refused, Redis lost); then every
    /// waiting join is answered, and a lease no join loaded goes back (`settle`).
    private func claimAnswered(_ name: String, reply: RedisReply?, sentNs: UInt64) {
        guard lifecycles[name]?.phase == .claiming else { return }
        let unavailable = "the fleet's room directory (Redis) cannot be reached; try again soon"
        var outcome = RoomLifecycle.ClaimOutcome.unavailable(unavailable)
        var waiters: [RoomLifecycle.Waiter]?
        switch reply {
        case .array(let parts)? where parts.first == .integer(1) && parts.count == 5:
            guard let epoch = parts[1].text else { break }
            var read = RoomLifecycle.Restore()
            if case .string(let bytes) = parts[2] { read.state = bytes }
            read.token = parts[3].text.flatMap { $0.count == 32 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }
            waiters = lifecycles[name]?.claimed(epoch: epoch, sentNs: sentNs, restore: read)
            if read.state != nil || read.token != nil, server.unloadedRooms[name] == nil {
                let summary = directory[name]?.summary ?? RoomSummary(name: name, clients: 0, bodies: 0, scene: server.config.scene,
                                                                       paused: true, held: false, loaded: false)
                server.unloadedRooms[name] = UnloadedRoom(summary: summary, roomToken: read.token)
            }
            log.info("room \(name): claimed under epoch \(epoch)")
            outcome = .claimed
        case .array(let parts)? where parts.first == .integer(0) && parts.count == 2:
            guard let owner = parts[1].text else { break }
            // A lease of this address from an earlier run of this server: it lapses within a lease.
            outcome = owner == ownerValue
                ? .unavailable("room \(name) is still leased to an earlier run of this server; try again in a few seconds")
                : .ownedElsewhere(owner)
        case .array(let parts)? where parts.first == .integer(-1):
            if parts.dropFirst().first?.text == "resuming" {
                outcome = .unavailable("the fleet's room directory (Redis) just resumed; rooms' owners register again; try again soon")
            }
        default:
            break
        }
        if waiters == nil {
            waiters = lifecycles[name]?.refused()
            lifecycles[name] = nil
        }
        for waiter in waiters ?? [] { waiter(outcome) }
        if outcome == .claimed { settle(name) }
    }

    /// After the joins that waited for a claim: when none of them loaded the room (they failed or left),
    /// live → releasing: the lease goes back, and a token read for it is forgotten without `--state-dir`.
    private func settle(_ name: String) {
        guard server.rooms[name] == nil, let lifecycle = lifecycles[name], lifecycle.holdsLease, lifecycle.awaitsLoad else { return }
        if let read = lifecycle.restore, read.state != nil || read.token != nil, server.config.stateDir == nil {
            server.unloadedRooms[name] = nil
        }
        release(name, reason: "no join loaded it")
    }

    /// The room loads here (the registry, Server+Rooms.swift): restores the state the claim read from Redis.
    func loaded(_ room: Room) {
        guard let read = lifecycles[room.name]?.load() else { return }
        if room.roomToken == nil, let token = read.token { room.roomToken = token }
        guard let bytes = read.state else { return }
        do {
            room.tick = try room.world.restoreState(bytes)
            room.unsaved = false
            // A recording starts where the room's history does: its header is written again for the
            // restored state (the file is reopened; the header of the scene it replaced goes).
            if room.recorder != nil, let dir = server.config.recordDir {
                room.recorder = nil
                room.startRecording(dir: dir)
            }
            log.notice("room \(room.name): restored from the fleet's state: \(room.world.animator.itemCount) items, tick \(room.tick)")
        } catch {
            log.error("room \(room.name): the state in Redis is unusable (\(error)); starting with its scene")
        }
    }

    // MARK: holding the lease

    /// Renews, under its epoch, the lease of every room held here (every second): live|fenced → live on a
    /// confirmation (fenced → live once a renewal sent within the deadline is confirmed), → gone (lost)
    /// when Redis names another owner or a newer epoch.
    func renewAll() {
        for room in server.roomOrder {
            guard let lifecycle = lifecycles[room.name], lifecycle.holdsLease, let epoch = lifecycle.epoch else { continue }
            let name = room.name
            let sentNs = EventLoop.hrtimeNs
            eval(ClusterScripts.renew,
                 keys: [ClusterScripts.ownerKey(name), ClusterScripts.epochKey(name), ClusterScripts.roomsKey,
                        ClusterScripts.stateKey(name), ClusterScripts.tokenKey(name), ClusterScripts.untilKey]
                    + ClusterScripts.changeKeys,
                 [epoch, ownerValue, leaseArgument, name, ClusterScripts.encode(room.summary), ttlArgument]) { [weak self] reply in
                guard let self, self.lifecycles[name]?.epoch == epoch else { return }
                switch reply {
                case .array(let parts)? where parts.first == .integer(1):
                    let wasFenced = self.lifecycles[name]?.phase == .fenced
                    guard self.lifecycles[name]?.renewed(sentNs: sentNs, nowNs: EventLoop.hrtimeNs) == true else { return }
                    if wasFenced, self.lifecycles[name]?.phase == .live {
                        self.log.notice("room \(name): lease renewed under epoch \(epoch); running again")
                    }
                case .array(let parts)? where parts.first == .integer(0):
                    self.server.metrics.fleetEpochRefusals += 1
                    self.lost(name, to: parts.dropFirst().first?.text)
                case .array(let parts)? where parts.first == .integer(-1):
                    self.server.metrics.fleetEpochRefusals += 1
                    self.lost(name, to: nil)
                default:
                    break
                }
            }
        }
    }

    /// live|fenced → gone (lost): the room's epoch moved on (another server claimed it while this one was
    /// stalled or cut off): the room is dropped without saving, and its members are redirected to the owner
    /// (or, with none, moved to main).
    private func lost(_ name: String, to ownerValue: String?) {
        guard !stopping, lifecycles[name]?.lost() == true else { return }
        lifecycles[name] = nil
        guard let room = server.rooms[name] else { return }
        log.error("room \(name): lease taken by \(ownerValue ?? "another server, since released") (this server missed its renewals); dropping it here unsaved")
        for session in room.seats.keys.sorted().compactMap({ server.sessions[$0] }) {
            if let ownerValue, let redirect = redirect(name, ownerValue: ownerValue, id: nil) {
                session.reply(.redirect(redirect))
                server.metrics.fleetRedirected("lease_lost")
            }
            server.performJoin(JoinPlan(target: .loaded(server.mainRoom), roomAdmin: false), session: session, id: nil, extraAck: [])
        }
        server.forget(room)
        server.metrics.fleetRoomsLost += 1
    }

    // MARK: saving

    /// Writes the room's state under its epoch while this server holds it (the rooms' saves; `always` at
    /// creation, unload and shutdown). Done only when Redis confirms; a refused or failed save is retried on
    /// the next round.
    func save(_ room: Room, always: Bool) {
        // Off the loop while the workers run: the room's next job encodes the state (Server+RoomRuns.swift),
        // which comes back here through save(_:state:).
        if !server.shuttingDown {
            server.requestSave(room, reason: "fleet", always: always)
            return
        }
        save(room, always: always, state: nil)
    }

    /// Writes a state the room's save job encoded off the loop (Server+RoomRuns.swift).
    func save(_ room: Room, state: [UInt8]) { save(room, always: true, state: state) }

    /// The save itself: `given` is the encoded state, or nil to encode it here (shutdown: no workers).
    private func save(_ room: Room, always: Bool, state given: [UInt8]?) {
        guard let lifecycle = lifecycles[room.name], lifecycle.holdsLease, let epoch = lifecycle.epoch else { return }
        guard room.unsaved || lifecycle.saveDirty || always else { return }
        let name = room.name
        guard redis.isUp, lifecycle.phase != .fenced || always else {
            lifecycles[name]?.saveDirty = true
            return
        }
        let state = given ?? room.world.encodeState(tick: room.tick)
        lifecycles[name]?.saveDirty = false
        // The file save (--state-dir) clears the flag itself; without one, Redis is the only copy.
        if room.statePath == nil { room.unsaved = false }
        eval(ClusterScripts.save,
             keys: [ClusterScripts.ownerKey(name), ClusterScripts.epochKey(name), ClusterScripts.stateKey(name),
                    ClusterScripts.tokenKey(name)].map { Array($0.utf8) },
             [Array(epoch.utf8), state, Array((room.roomToken ?? "").utf8), Array(ttlArgument.utf8)]) { [weak self] reply in
            guard let self else { return }
            if case .integer(1)? = reply { return }
            self.server.metrics.fleetSavesFailed += 1
            if case .integer(0)? = reply {
                self.server.metrics.fleetEpochRefusals += 1
                self.log.warning("room \(name): state not written, epoch \(epoch) is no longer the room's")
            }
            if self.lifecycles[name]?.epoch == epoch { self.lifecycles[name]?.saveDirty = true }
        }
    }

    func saveAll(always: Bool) {
        for room in server.roomOrder where lifecycles[room.name]?.holdsLease == true { save(room, always: always) }
    }

    // MARK: releasing

    /// live|fenced → releasing, and releasing → gone once Redis answers the release (or the connection is
    /// lost: the lease then lapses alone). A room that was only claiming leaves the table at once.
    func release(_ name: String, reason: String) {
        if let waiters = lifecycles[name]?.refused() {
            // A claim still in flight (shutdown): its joins get unavailable; a lease it takes lapses alone.
            lifecycles[name] = nil
            for waiter in waiters { waiter(.unavailable("this server is shutting down; try again")) }
            return
        }
        guard lifecycles[name]?.release() == true, let epoch = lifecycles[name]?.epoch else { return }
        log.info("room \(name): releasing its lease (epoch \(epoch); \(reason))")
        eval(ClusterScripts.release,
             keys: [ClusterScripts.ownerKey(name), ClusterScripts.roomsKey, ClusterScripts.epochKey(name),
                    ClusterScripts.stateKey(name), ClusterScripts.tokenKey(name), ClusterScripts.untilKey]
                + ClusterScripts.changeKeys,
             [epoch, name, ttlArgument]) { [weak self] _ in
            guard let self, self.lifecycles[name]?.epoch == epoch, self.lifecycles[name]?.released() == true else { return }
            self.lifecycles[name] = nil
        }
    }

    /// A room unloads here: its state goes to Redis, then its lease is released (in this order on the one
    /// connection, so Redis writes the state first).
    func unloaded(_ room: Room) {
        save(room, always: true)
        release(room.name, reason: "unloaded")
        directory[room.name] = nil
    }
}
