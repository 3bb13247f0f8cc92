import DynRoom
import Dynamics
import NetProtocol
import NetLoop

/// Reading: bytes -> lines -> messages, each answered once. The front answers `hello`, `join` and `rooms`
/// itself; every other message goes to the sender's room (Room+Commands.swift).
extension Server {
    /// One message of the protocol, whatever carried it (a TCP line or a WebSocket text frame).
    func handleLine(_ line: UnsafeRawBufferPointer, from session: ClientSession) {
        guard !session.closing else { return }
        if let cluster, cluster.isHolding(session) { return cluster.hold(line, for: session) }
        // Decoded and rate-limited as it arrives; answered in order with the session's earlier messages.
        let answer: () -> Void
        switch ClientMessage.decode(line) {
        case .failure(let error):
            _ = session.bucket.take(nowNs: EventLoop.hrtimeNs)
            answer = { session.reply(.error(error)) }
        case .success(let message):
            guard session.bucket.take(nowNs: EventLoop.hrtimeNs) else {
                let limited = ProtocolError(.rateLimited, "more than \(Int(config.rate)) commands/s (burst \(Int(config.burst)))", id: message.id)
                answer = { session.reply(.error(limited)) }
                break
            }
            metrics.command(message.command.typeName)
            answer = { [unowned self] in self.execute(message, from: session) }
        }
        dispatch(answer, for: session, waited: false)
    }

    /// Answers now when the session's room is free; else the answer waits behind what reached the room
    /// before (docs/ARCHITECTURE.md, Rooms and threads) and then goes out like the end of a read. A session
    /// that moved to another room meanwhile (a `join` that waited in the same queue) follows it there.
    func dispatch(_ answer: @escaping () -> Void, for session: ClientSession, waited: Bool) {
        let room = session.room
        guard !isFree(room) else {
            answer()
            if waited { settle(session) }
            return
        }
        whenFree(room) { [unowned self] in
            guard !session.closing else { return }
            guard session.room === room else { return self.dispatch(answer, for: session, waited: true) }
            answer()
            self.settle(session)
        }
    }

    /// The end of a message applied after it waited: scenes first, then its replies. While a room's waiting
    /// inputs are being applied, this happens once for the whole batch when it ends, as for one read: a client
    /// whose 3 000 spawns waited behind a tick gets one `scene`, not 3 000 growing ones.
    func settle(_ session: ClientSession) {
        if settlesAfterDrain != nil {
            if !settlesAfterDrain!.contains(where: { $0 === session }) { settlesAfterDrain!.append(session) }
            return
        }
        if isFree(session.room) { session.room.syncScene() }
        guard !session.closing else { return }
        session.flushReplies()
    }

    private func execute(_ message: ClientMessage, from session: ClientSession) {
        let id = message.id
        switch message.command {
        case .hello(let name, let token, let version, let subscribe, let room, let roomToken):
            hello(session, id: id, name: name, token: token, version: version, subscribe: subscribe,
                  room: room ?? session.requestedRoom, roomToken: roomToken)
        case .join(let room, let scene, let roomToken):
            guard session.authorized else {
                session.reply(.error(ProtocolError(.unauthorized, "send hello with the server's token first", id: id)))
                return
            }
            if let cluster, cluster.mustClaim(room) {
                // A fleet room not loaded here: the directory says who owns it (docs/PROTOCOL.md, A fleet).
                return cluster.claim(room, for: session, id: id) { [unowned self] in self.execute(message, from: session) }
            }
            switch planJoin(room, scene: scene, roomToken: roomToken, for: session) {
            case .failure(var error):
                error.id = id
                session.reply(.error(error))
            case .success(let plan):
                performJoin(plan, session: session, id: id, extraAck: [])
            }
        case .rooms:
            guard session.authorized else {
                session.reply(.error(ProtocolError(.unauthorized, "send hello with the server's token first", id: id)))
                return
            }
            session.reply(.ack(id: id, fields: [("rooms", .array(roomSummaries().map(\.json)))]))
        case .ping(_):
            session.room.execute(message, from: session.seat)
        default:
            // A fleet room past its lease deadline is held (docs/ARCHITECTURE.md, The room lifecycle in a fleet).
            if let cluster, !cluster.isActive(session.room.name) {
                session.reply(.error(ProtocolError(.unavailable, "room \(session.room.name) is held: this server cannot reach the fleet's directory to renew its lease; try again soon", id: id)))
                return
            }
            session.room.execute(message, from: session.seat)
            // The room is free here (dispatch), so its summary (`dyn_bodies`, `rooms`) follows the command at
            // once instead of at the room's next job.
            session.room.publish()
        }
    }

    /// `hello`: the token check, the name, rights and subscription; with `room` it is a `join` right after
    /// (one answer: the join's scene, state and ack, which carries hello's fields too). A hello whose room
    /// cannot be joined changes nothing and gets the join's error.
    private func hello(_ session: ClientSession, id: MessageID?, name: String?, token: String?, version: Int?,
                       subscribe: SubscriptionChange?, room: String?, roomToken: String?) {
        if let version, version != 1 {
            session.reply(.error(ProtocolError(.protocolMismatch, "this server speaks protocol 1, not \(version)", id: id)))
            return
        }
        let isAdminToken = TokenComparison.matches(token, config.adminToken)
        if let required = config.token, !session.authorized, !TokenComparison.matches(token, required), !isAdminToken {
            session.reply(.error(ProtocolError(.unauthorized, token == nil ? "this server needs a token" : "wrong token", id: id)))
            return
        }
        if let cluster, let wanted = room, cluster.mustClaim(wanted) {
            return cluster.claim(wanted, for: session, id: id) { [unowned self] in
                self.hello(session, id: id, name: name, token: token, version: version, subscribe: subscribe, room: wanted,
                           roomToken: roomToken)
            }
        }
        var plan: JoinPlan?
        if let room, room != session.room.name || roomToken != nil {
            let wasAdmin = session.serverAdmin
            if isAdminToken { session.serverAdmin = true }
            defer { session.serverAdmin = wasAdmin }
            switch planJoin(room, scene: nil, roomToken: roomToken, for: session) {
            case .failure(var error):
                error.id = id
                session.reply(.error(error))
                return
            case .success(let planned): plan = planned
            }
        }
        session.requestedRoom = nil
        if isAdminToken { session.serverAdmin = true }
        if let subscribe {
            session.room.wake()
            session.subscription = subscribe.applied(to: session.subscription, maxHz: min(config.snapshotHz, config.tickHz))
            if session.subscription.contacts { session.room.world.animator.contactEventsEnabled = true }
        }
        if let name, !name.isEmpty { session.name = String(name.prefix(64)) }
        let joining = !session.authorized
        session.authorized = true
        if let plan {
            performJoin(plan, session: session, id: id, extraAck: [("client", .number(Double(session.id)))])
            return
        }
        if let id {
            session.reply(.ack(id: id, fields: [("client", .number(Double(session.id))), ("admin", .bool(session.admin)),
                                                ("room", .string(session.room.name))]))
        }
        if joining {
            session.flushReplies()
            session.room.sendWorld(to: session.seat)
        } else if subscribe?.snapshots != nil {
            session.flushReplies()
            session.room.sendState(to: session.seat)
        }
    }
}
