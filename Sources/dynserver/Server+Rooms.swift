import DynRoom
import Dynamics
import NetProtocol
import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// Where a `join` leads, decided before anything changes (so a failed join, or a `hello` whose room cannot
/// be joined, changes nothing).
struct JoinPlan {
    enum Target {
        case loaded(Room)
        /// A room saved in `--state-dir` and unloaded: restored from its file.
        case restore(String)
        /// A new room, with this scene.
        case create(String, scene: String)
    }
    var target: Target
    /// Admin in the room after the join: its creator, or the holder of its `room_token`.
    var roomAdmin: Bool
}

/// A room saved in `--state-dir` and unloaded: what `rooms` says about it, and its token for when it returns.
struct UnloadedRoom {
    var summary: RoomSummary
    var roomToken: String?
}

/// The room registry (docs/PROTOCOL.md, Rooms): the only place that creates, restores and unloads rooms.
///
/// Guarantees: check-and-create is one call on the loop thread (two joins of a new name create it once);
/// `main` always exists and is never unloaded; `--max-rooms` counts every loaded room, `main` included;
/// `--no-room-create` refuses new names with `forbidden` but still restores saved rooms; a room unloads only
/// after `--room-idle-s` without members, saved first when `--state-dir` is set, else forgotten.
extension Server {
    /// The state file of room `name` in `--state-dir` (`--state` wins for `main`).
    func statePath(ofRoom name: String) -> String? {
        if name == Room.mainName, let path = config.statePath { return path }
        return config.stateDir.map { "\($0)/\(name).json" }
    }

    /// Decides what a join of `name` does for `session`, or the protocol error that refuses it.
    func planJoin(_ name: String, scene: String?, roomToken: String?, for session: ClientSession) -> Result<JoinPlan, ProtocolError> {
        guard RoomName.isValid(name) else {
            return .failure(ProtocolError(.badValue, "a room name is 1...64 characters of A-Z a-z 0-9 - _ . starting with a letter or a digit"))
        }
        if let scene, Scenes.named(scene) == nil {
            return .failure(ProtocolError(.badValue, "unknown scene \"\(scene)\" (known: \(Scenes.names.joined(separator: ", ")))"))
        }
        if let room = rooms[name] {
            return .success(JoinPlan(target: .loaded(room), roomAdmin: TokenComparison.matches(roomToken, room.roomToken)))
        }
        if draining {
            return .failure(ProtocolError(.unavailable, "this server is draining (shutting down): room \(name) cannot be opened here; try again"))
        }
        if let saved = unloadedRooms[name] {
            guard rooms.count < config.maxRooms else { return .failure(roomLimit()) }
            return .success(JoinPlan(target: .restore(name), roomAdmin: TokenComparison.matches(roomToken, saved.roomToken)))
        }
        guard !config.noRoomCreate else {
            return .failure(ProtocolError(.forbidden, "room \(name) does not exist and this server creates no rooms (--no-room-create)"))
        }
        guard rooms.count < config.maxRooms else { return .failure(roomLimit()) }
        // The admin token is exempt from --max-rooms-per-client (docs/PROTOCOL.md, Rooms).
        if config.adminToken == nil || !session.serverAdmin {
            let created = rooms.values.filter { $0.creatorClient == session.id }.count
            guard created < config.maxRoomsPerClient else {
                return .failure(ProtocolError(.roomLimit, "this connection created \(created) rooms that are still loaded, the most a connection may (--max-rooms-per-client)"))
            }
        }
        return .success(JoinPlan(target: .create(name, scene: scene ?? config.scene), roomAdmin: true))
    }

    private func roomLimit() -> ProtocolError {
        ProtocolError(.roomLimit, "this server holds at most \(config.maxRooms) rooms (--max-rooms), main included")
    }

    /// Moves `session` to the planned room (its drag in the old one ends) and sends it, in order, the room's
    /// `scene`, its state and the ack (`room`, `created`, `admin`, `room_token` when created).
    func performJoin(_ plan: JoinPlan, session: ClientSession, id: MessageID?, extraAck: [(String, JSONValue)]) {
        let room: Room
        var created = false
        switch plan.target {
        case .loaded(let loaded):
            room = loaded
        case .restore(let name):
            let saved = unloadedRooms.removeValue(forKey: name)
            room = loadRoom(name, scene: config.scene, roomToken: saved?.roomToken)
        case .create(let name, let scene):
            room = loadRoom(name, scene: scene, roomToken: RoomName.newToken())
            saveToken(of: room)
            created = true
            metrics.roomsCreated += 1
            log.info("room \(name) created by client \(session.id) with scene \(scene) (\(rooms.count) rooms)")
        }
        if created { room.creatorClient = session.id }
        let old = session.room
        whenFree(old) { old.remove(session.seat, nowNs: EventLoop.hrtimeNs) }
        session.room = room
        // The new room may be on a worker: the seat is taken, and the scene, state and ack sent, once it is back
        // (the session's later messages wait behind this in the same room).
        whenFree(room) {
            guard !session.closing else { return }
            session.roomAdmin = plan.roomAdmin
            room.add(session.seat)
            session.flushReplies()
            room.sendWorld(to: session.seat)
            var fields = extraAck
            fields += [("room", .string(room.name)), ("created", .bool(created)), ("admin", .bool(session.admin))]
            if created, let token = room.roomToken { fields.append(("room_token", .string(token))) }
            session.reply(.ack(id: id, fields: fields))
            session.flushReplies()
        }
    }

    /// `DIR/NAME.token` beside the room's state file, so its creator's token survives a restart.
    private func tokenPath(ofRoom name: String) -> String? {
        name == Room.mainName ? nil : config.stateDir.map { "\($0)/\(name).token" }
    }

    private func saveToken(of room: Room) {
        // In a fleet the new room's token and empty state reach Redis at once, so the creator's rights
        // survive a move even before the first interval's save.
        cluster?.save(room, always: true)
        guard let path = tokenPath(ofRoom: room.name), let token = room.roomToken else { return }
        do {
            try StateFile(path: path).save(Array(token.utf8))
        } catch {
            log.error("room \(room.name): cannot save its room token: \(error)")
        }
    }

    private func loadToken(ofRoom name: String) -> String? {
        guard let path = tokenPath(ofRoom: name), let bytes = try? StateFile(path: path).load() else { return nil }
        let token = String(decoding: bytes, as: UTF8.self)
        return token.count == 32 && token.allSatisfy(\.isHexDigit) ? token : nil
    }

    /// Creates (or restores from its state file) room `name` and registers it.
    private func loadRoom(_ name: String, scene: String, roomToken: String?) -> Room {
        let room = Room(name: name, config: config.roomConfig, log: log, front: self, scene: scene,
                        statePath: statePath(ofRoom: name), beatStartNs: beatStartNs)
        room.roomToken = roomToken
        room.idleSinceNs = EventLoop.hrtimeNs
        cluster?.loaded(room)
        rooms[name] = room
        roomOrder = rooms.values.sorted { $0.name < $1.name }
        return room
    }

    /// `rooms` and `GET /rooms`: every loaded room and every saved one, sorted by name.
    func roomSummaries() -> [RoomSummary] {
        if let cluster { return cluster.summaries(local: rooms.values.map(\.summary) + unloadedRooms.values.map(\.summary)) }
        return (rooms.values.map(\.summary) + unloadedRooms.values.map(\.summary)).sorted { $0.name < $1.name }
    }

    /// Unloads every room but `main` that has had no member for `--room-idle-s` (housekeeping).
    func unloadIdleRooms(nowNs: UInt64) {
        let idleNs = UInt64(config.roomIdleS * 1e9)
        // In a fleet a room's state is saved to Redis at unload: none unloads while Redis is away.
        if cluster?.problem != nil { return }
        // A replay's room (`replay --serve`) stays for the whole run, watched or not.
        for room in roomOrder where room.name != Room.mainName && room.seats.isEmpty && !room.playback && isFree(room) {
            guard let since = room.idleSinceNs, nowNs &- since >= idleNs else { continue }
            unload(room, reason: "idle")
        }
    }

    private func unload(_ room: Room, reason: String) {
        cluster?.unloaded(room)
        if room.statePath != nil {
            room.saveState(reason: "unload", always: true)
            var summary = room.summary
            summary.loaded = false
            summary.clients = 0
            unloadedRooms[room.name] = UnloadedRoom(summary: summary, roomToken: room.roomToken)
        }
        rooms[room.name] = nil
        roomOrder = rooms.values.sorted { $0.name < $1.name }
        metrics.roomsUnloaded += 1
        log.info("room \(room.name) unloaded (\(reason))\(room.statePath.map { ", saved to \($0)" } ?? ", forgotten") (\(rooms.count) rooms)")
    }

    /// The rooms saved in `--state-dir` by an earlier run (all but `main`), listed as unloaded.
    func discoverSavedRooms() {
        guard let directory = config.stateDir, let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let fileName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard fileName.hasSuffix(".json") else { continue }
            let name = String(fileName.dropLast(5))
            guard RoomName.isValid(name), name != Room.mainName, rooms[name] == nil else { continue }
            let probe = SharedWorld(width: config.worldWidth, height: config.worldHeight, stepHz: config.tickHz,
                                    maxBodies: config.maxBodies)
            guard let bytes = try? StateFile(path: "\(directory)/\(fileName)").load(),
                  (try? probe.restoreState(bytes)) != nil else {
                log.warning("room \(name): \(directory)/\(fileName) is not a usable state file; it is checked again when the room is joined")
                unloadedRooms[name] = UnloadedRoom(summary: RoomSummary(name: name, clients: 0, bodies: 0, scene: config.scene,
                                                                        paused: true, held: false, loaded: false),
                                                  roomToken: loadToken(ofRoom: name))
                continue
            }
            unloadedRooms[name] = UnloadedRoom(summary: RoomSummary(name: name, clients: 0, bodies: probe.animator.itemCount,
                                                                    scene: probe.sceneName, paused: !probe.animator.isRunning,
                                                                    held: probe.held, loaded: false),
                                                  roomToken: loadToken(ofRoom: name))
        }
    }

    /// Saves every loaded room that changed since its last save (`--state-interval`, and `always` at shutdown).
    func saveRooms(reason: String, always: Bool = false) {
        for room in roomOrder {
            guard shuttingDown else {
                // Off the loop: encoded, written and synced by the room's next job (Server+RoomRuns.swift).
                requestSave(room, reason: reason, always: always)
                continue
            }
            cluster?.save(room, always: always)
            room.saveState(reason: reason, always: always)
        }
    }
}
