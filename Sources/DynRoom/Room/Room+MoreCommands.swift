import Dynamics
import NetProtocol

/// Dispatch of the commands beyond protocol 1's table (docs/PROTOCOL.md: attachments, fields, item and world
/// commands, time control), and what follows a successful command: the `notice` to the other clients.
extension Room {
    package func applyMore(_ command: ClientCommand, from session: Seat) throws(ProtocolError) -> SharedWorld.AckFields {
        switch command {
        case .attach(let spec): return try world.attach(spec)
        case .anchor(let attachment, let x, let y): return try world.moveAnchor(attachment: attachment, x: x, y: y)
        case .detach(let attachment): return try world.detach(attachment: attachment)
        case .field(let kind, let parameters): return try world.addField(kind: kind, parameters)
        case .fieldUpdate(let field, let parameters): return try world.updateField(field, parameters)
        case .unfield(let field): return try world.removeField(field)
        case .velocity(let body, let vx, let vy, let av, let add):
            return try world.velocity(body: body, vx: vx, vy: vy, av: av, add: add)
        case .boundary(let name, let points, let closed): return try world.setBoundary(name: name, points: points, closed: closed)
        case .removeBoundary(let name): return try world.removeBoundary(name: name)
        case .bounds(let enabled, let insets): return try world.setBounds(enabled: enabled, insets: insets)
        case .group(let bodies): return try world.group(bodies)
        case .ungroup(let group): return try world.ungroup(group)
        case .pause:
            let fields = world.pause()
            broadcastSnapshot(paused: !world.animator.isRunning)
            return fields
        case .resume:
            return world.resume()
        case .step(let ticks):
            let fields = try world.step(ticks: ticks) {
                tick += 1
                front.ticked(1)
                collectContacts()
            }
            // Scene changes the steps made (none today) go first, then the snapshot reaches everyone.
            syncScene()
            broadcastSnapshot(paused: !world.animator.isRunning)
            return fields
        case .checkpoint(let name): return try takeCheckpoint(name)
        case .restore(let name): return try restoreCheckpoint(name)
        default:
            return []
        }
    }

    /// Tells every other member that wants notices who changed the room's structure and how.
    package func afterApplied(_ command: ClientCommand, fields: SharedWorld.AckFields, from session: Seat) {
        if case .restore = command {
            endAbsentDrags()
            broadcastRestored()
        }
        guard let summary = command.noticeSummary(fields) else { return }
        let line = SharedBytes(ServerMessage.notice(Notice(client: session.id, name: session.name, command: command.typeName,
                                                           summary: summary)).encoded())
        for other in receivers where other !== session && other.subscription.notices {
            front.write(line, kind: .reliable, to: other.id)
        }
    }
}

extension ClientCommand {
    /// Structural commands of docs/PROTOCOL.md that join the admin-gated list; moving an anchor or a field and
    /// `velocity` are interaction and stay open.
    package var isGatedInteraction: Bool {
        switch self {
        case .attach, .detach, .field, .unfield, .boundary, .removeBoundary, .bounds, .group, .ungroup,
             .pause, .resume, .step, .checkpoint, .restore:
            return true
        case .fieldUpdate(_, let parameters):
            return !parameters.movesOnly
        default:
            return false
        }
    }

    /// What a `notice` says about this command, or nil when it does not change the world's structure.
    package func noticeSummary(_ ack: SharedWorld.AckFields) -> String? {
        func number(_ key: String) -> String {
            for (name, value) in ack where name == key { if case .number(let n) = value { return String(Int(n)) } }
            return "?"
        }
        switch self {
        case .scene(let name): return "loaded \(name)"
        case .spawn(let shape, _, _, _, _, _, _, _, _): return "spawned \(shape.wireName) \(number("body"))"
        case .remove(let body): return "removed body \(body)"
        case .set(let body, _): return "changed body \(body)"
        case .gravity: return "changed gravity"
        case .collision(let mode): return "collision mode \(mode.rawValue)"
        case .snap(let body, _, _, _): return "snapped body \(body)"
        case .unsnap(let body): return "unsnapped body \(body)"
        case .attach(let spec): return "attached body \(spec.body) (\(spec.kind.rawValue)) as attachment \(number("attachment"))"
        case .detach(let attachment): return "removed attachment \(attachment)"
        case .field(let kind, _): return "added \(kind.rawValue) field \(number("field"))"
        case .fieldUpdate(let field, let parameters): return parameters.movesOnly ? nil : "changed field \(field)"
        case .unfield(let field): return "removed field \(field)"
        case .boundary(let name, _, _): return "set boundary \(name)"
        case .removeBoundary(let name): return "removed boundary \(name)"
        case .bounds: return "changed bounds"
        case .group: return "grouped as group \(number("group"))"
        case .ungroup(let group): return "ungrouped group \(group)"
        case .pause: return "paused the world"
        case .resume: return "resumed the world"
        case .restore(let name): return "restored checkpoint \(name)"
        default: return nil
        }
    }
}

extension ClientCommand {
    /// The commands that `--admin-token` guards (docs/PROTOCOL.md, Security).
    package var changesStructure: Bool {
        switch self {
        case .set, .gravity, .collision, .spawn, .remove, .scene: return true
        default: return isGatedInteraction
        }
    }
}
