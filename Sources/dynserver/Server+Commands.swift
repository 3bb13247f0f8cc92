import Dynamics
import NetProtocol

/// Reading: bytes -> lines -> messages -> commands applied to the world, with one answer per command.
extension Server {
    /// One message of the protocol, whatever carried it (a TCP line or a WebSocket text frame).
    func handleLine(_ line: UnsafeRawBufferPointer, from session: ClientSession) {
        guard !session.closing else { return }
        switch ClientMessage.decode(line) {
        case .failure(let error):
            _ = session.bucket.take(nowNs: EventLoop.hrtimeNs)
            session.reply(.error(error))
        case .success(let message):
            guard session.bucket.take(nowNs: EventLoop.hrtimeNs) else {
                session.reply(.error(ProtocolError(.rateLimited, "more than \(Int(config.rate)) commands/s (burst \(Int(config.burst)))", id: message.id)))
                return
            }
            metrics.command(message.command.typeName)
            execute(message, from: session)
        }
    }

    private func execute(_ message: ClientMessage, from session: ClientSession) {
        let id = message.id
        switch message.command {
        case .hello(let name, let token, let version, let subscribe):
            hello(session, id: id, name: name, token: token, version: version, subscribe: subscribe)
            return
        case .subscribe(let change):
            subscribe(session, id: id, change: change)
            return
        case .ping(let t):
            session.reply(.pong(t: t, tick: tick, id: id))
            return
        default:
            break
        }
        guard session.authorized else {
            session.reply(.error(ProtocolError(.unauthorized, "send hello with the server's token first", id: id)))
            return
        }
        if message.command.changesStructure, !session.admin {
            session.reply(.error(ProtocolError(.forbidden, "\(message.command.typeName) needs a hello with the admin token", id: id)))
            return
        }
        do {
            // Each command wakes only the items it touches (the animator's add/update/remove do that).
            let fields = try apply(message.command, from: session)
            if let id { session.reply(.ack(id: id, fields: fields)) }
            afterApplied(message.command, fields: fields, from: session)
        } catch {
            var error = error
            error.id = id
            session.reply(.error(error))
        }
    }

    /// Changes what the client receives; acked (always, so a client learns the capped rate) with the result.
    private func subscribe(_ session: ClientSession, id: MessageID?, change: SubscriptionChange) {
        session.subscription = change.applied(to: session.subscription, maxHz: min(config.snapshotHz, config.tickHz))
        if session.subscription.contacts { world.animator.contactEventsEnabled = true }
        session.reply(.ack(id: id, fields: subscriptionFields(session.subscription)))
        // A new kind of snapshot starts at once (a keyframe for compact), not at the next due tick.
        if change.snapshots != nil, session.authorized {
            session.flushReplies()
            sendState(to: session)
        }
    }

    func subscriptionFields(_ s: Subscription) -> [(String, JSONValue)] {
        [("contacts", .bool(s.contacts)), ("notices", .bool(s.notices)), ("snapshots", .string(s.snapshots.rawValue)),
         ("snapshot_hz", .number(s.snapshotHz ?? min(config.snapshotHz, config.tickHz)))]
    }

    private func hello(_ session: ClientSession, id: MessageID?, name: String?, token: String?, version: Int?,
                       subscribe: SubscriptionChange?) {
        if let version, version != 1 {
            session.reply(.error(ProtocolError(.protocolMismatch, "this server speaks protocol 1, not \(version)", id: id)))
            return
        }
        let isAdminToken = config.adminToken != nil && token == config.adminToken
        if let required = config.token, !session.authorized, token != required, !isAdminToken {
            session.reply(.error(ProtocolError(.unauthorized, token == nil ? "this server needs a token" : "wrong token", id: id)))
            return
        }
        if isAdminToken { session.admin = true }
        if let subscribe {
            session.subscription = subscribe.applied(to: session.subscription, maxHz: min(config.snapshotHz, config.tickHz))
            if session.subscription.contacts { world.animator.contactEventsEnabled = true }
        }
        if let name, !name.isEmpty { session.name = String(name.prefix(64)) }
        let joining = !session.authorized
        session.authorized = true
        if let id {
            session.reply(.ack(id: id, fields: [("client", .number(Double(session.id))), ("admin", .bool(session.admin))]))
        }
        if joining {
            session.flushReplies()
            sendWorld(to: session)
        } else if subscribe?.snapshots != nil {
            session.flushReplies()
            sendState(to: session)
        }
    }

    private func apply(_ command: ClientCommand, from session: ClientSession) throws(ProtocolError) -> SharedWorld.AckFields {
        switch command {
        case .tap(let x, let y, let body, let mode):
            return try world.tap(x: x, y: y, body: body, mode: mode)
        case .push(let body, let direction, let mode, let active, let offset):
            return try world.push(body: body, direction: direction, mode: mode, active: active, offset: offset)
        case .drag(let phase, let x, let y, let body):
            switch phase {
            case .begin:
                guard let x, let y else { throw ProtocolError(.badMessage, "drag begin needs x and y") }
                return try world.dragBegin(client: session.id, name: session.name, x: x, y: y, body: body)
            case .move:
                guard let x, let y else { throw ProtocolError(.badMessage, "drag move needs x and y") }
                return try world.dragMove(client: session.id, x: x, y: y)
            case .end:
                return try world.dragEnd(client: session.id)
            }
        case .snap(let body, let x, let y, let damping):
            return try world.snap(body: body, x: x, y: y, damping: damping)
        case .unsnap(let body):
            return try world.unsnap(body: body)
        case .set(let body, let patch):
            return try world.set(body: body, patch: patch)
        case .gravity(let change):
            return try world.changeGravity(change)
        case .collision(let mode):
            return world.setCollisionMode(mode)
        case .spawn(let shape, let width, let height, let x, let y, let angle, let vx, let vy, let patch):
            return try world.spawn(shape: shape, width: width, height: height, x: x, y: y, angle: angle, vx: vx, vy: vy, patch: patch)
        case .remove(let body):
            return try world.removeBody(body)
        case .scene(let name):
            return try world.loadScene(name)
        default:
            return try applyMore(command, from: session)
        }
    }
}

extension ClientCommand {
    /// The commands that `--admin-token` guards (docs/PROTOCOL.md, Security).
    var changesStructure: Bool {
        switch self {
        case .set, .gravity, .collision, .spawn, .remove, .scene: return true
        default: return isGatedInteraction
        }
    }
}
