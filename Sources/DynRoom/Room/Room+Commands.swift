import Dynamics
import NetProtocol

/// A member's commands applied to its room: rights, the world command, its ack or error, the notice to the
/// others; `subscribe` and `ping` too (a `pong` carries the room's tick).
extension Room {
    package func execute(_ message: ClientMessage, from session: Seat) {
        wake()
        let id = message.id
        switch message.command {
        case .subscribe(let change):
            subscribe(session, id: id, change: change)
            return
        case .ping(let t):
            session.reply(.pong(t: t, tick: tick, id: id))
            return
        default:
            break
        }
        if fenced {
            session.reply(.error(ProtocolError(.unavailable, "room \(name) is moving to another server: try again", id: id)))
            return
        }
        guard session.authorized else {
            session.reply(.error(ProtocolError(.unauthorized, "send hello with the server's token first", id: id)))
            return
        }
        if case .hash = message.command {
            // Needs no rights and changes nothing (not even what the state file would say).
            session.reply(.ack(id: id, fields: hashFields()))
            return
        }
        if playback {
            session.reply(.error(ProtocolError(.forbidden, "room \(name) plays a recording: watch it (ping, subscribe and hash only)", id: id)))
            return
        }
        if message.command.changesStructure, !session.admin {
            let needs = name == Room.mainName ? "the admin token" : "the admin token or this room's room_token"
            session.reply(.error(ProtocolError(.forbidden, "\(message.command.typeName) needs a hello or join with \(needs)", id: id)))
            return
        }
        if case .step(let ticks) = message.command {
            // The room's own long job: answered when its last step is done (Room+Job.swift).
            do {
                try beginLongStep(ticks: ticks, id: id, from: session)
            } catch {
                var error = error
                error.id = id
                session.reply(.error(error))
            }
            return
        }
        do {
            // Each command wakes only the items it touches (the animator's add/update/remove do that).
            let appliedAt = tick
            let fields = try apply(message.command, from: session)
            unsaved = true
            recordApplied(message.command, at: appliedAt, client: session.id, name: session.name)
            if let id { session.reply(.ack(id: id, fields: fields)) }
            afterApplied(message.command, fields: fields, from: session)
        } catch {
            var error = error
            error.id = id
            session.reply(.error(error))
        }
    }

    /// Changes what the client receives; acked (always, so a client learns the capped rate) with the result.
    package func subscribe(_ session: Seat, id: MessageID?, change: SubscriptionChange) {
        session.subscription = change.applied(to: session.subscription, maxHz: min(config.snapshotHz, config.tickHz))
        if session.subscription.contacts { world.animator.contactEventsEnabled = true }
        session.reply(.ack(id: id, fields: subscriptionFields(session.subscription)))
        // A new kind of snapshot starts at once (a keyframe for compact), not at the next due tick.
        if change.snapshots != nil, session.authorized {
            front.flushReplies(of: session)
            sendState(to: session)
        }
    }

    package func subscriptionFields(_ s: Subscription) -> [(String, JSONValue)] {
        [("contacts", .bool(s.contacts)), ("notices", .bool(s.notices)), ("snapshots", .string(s.snapshots.rawValue)),
         ("snapshot_hz", .number(s.snapshotHz ?? min(config.snapshotHz, config.tickHz)))]
    }

    package func apply(_ command: ClientCommand, from session: Seat) throws(ProtocolError) -> SharedWorld.AckFields {
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
