import Dynamics
import NetProtocol

/// `attach`, `anchor` and `detach` (docs/PROTOCOL.md): every listed attachment, the scenes' own included, is
/// addressed by its behavior id, and any one with an anchor can be moved.
extension SharedWorld {
    /// Largest attachment offset, in points: farther lever arms leave the joint solver no significant digits.
    package static let maxAttachmentOffset = 100_000.0

    package func attach(_ spec: AttachSpec) throws(ProtocolError) -> AckFields {
        try requireBody(spec.body)
        for (name, offset) in [("offset", spec.offset), ("to_offset", spec.target.offset)] {
            if let o = offset, abs(o.x) > SharedWorld.maxAttachmentOffset || abs(o.y) > SharedWorld.maxAttachmentOffset {
                throw ProtocolError(.badValue, "field \"\(name)\" must be within ±100000 points of the item's center")
            }
        }
        guard let itemA = animator.item(spec.body) else { throw ProtocolError(.unknownBody, "no body with id \(spec.body)") }
        var behavior = AttachmentBehavior(item: spec.body, offset: spec.offset.map(Vec2.init) ?? .zero)
        switch spec.target {
        case .anchor(let point):
            behavior.anchor = Vec2(point)
        case .body(let other, let offset):
            guard contains(other) else { throw ProtocolError(.unknownBody, "no body with id \(other) (field \"to_body\")") }
            behavior.otherItem = other
            behavior.otherOffset = offset.map(Vec2.init) ?? .zero
        }
        switch spec.kind {
        case .distance:
            behavior.kind = .distance
            behavior.length = spec.length
            behavior.frequency = spec.frequency ?? 0
            behavior.damping = spec.damping ?? 0
        case .limit:
            behavior.kind = .limit
            behavior.length = spec.length
        case .fixed, .sliding, .pin:
            let id = try attachJoint(spec, itemA: itemA)
            sceneAttachments.append(id)
            attachmentKinds[id] = spec.kind
            structureChanged = true
            return [("attachment", .number(Double(id)))]
        }
        do {
            let id = try animator.add(behavior)
            sceneAttachments.append(id)
            attachmentKinds[id] = spec.kind
            structureChanged = true
            return [("attachment", .number(Double(id)))]
        } catch {
            throw ProtocolError(.badValue, "attach rejected: \(error.protocolWords)")
        }
    }

    package func moveAnchor(attachment id: Int, x: Double, y: Double) throws(ProtocolError) -> AckFields {
        if sceneAttachments.contains(id), let joint = animator.jointAttachment(id) {
            guard joint.otherItem == nil else {
                throw ProtocolError(.badValue, "field \"attachment\": attachment \(id) joins two items; it has no anchor")
            }
            do { try animator.moveJointAnchor(id, to: Vec2(x, y)) } catch {
                throw ProtocolError(.badValue, "anchor rejected: \(error.protocolWords)")
            }
            structureChanged = true
            return [("attachment", .number(Double(id)))]
        }
        guard sceneAttachments.contains(id), var behavior = animator.attachment(id) else {
            throw ProtocolError(.badValue, "field \"attachment\": no attachment with id \(id)")
        }
        guard behavior.anchor != nil else {
            throw ProtocolError(.badValue, "field \"attachment\": attachment \(id) joins two items; it has no anchor")
        }
        behavior.anchor = Vec2(x, y)
        do { try animator.update(id, behavior) } catch {
            throw ProtocolError(.badValue, "anchor rejected: \(error.protocolWords)")
        }
        structureChanged = true
        return [("attachment", .number(Double(id)))]
    }

    package func detach(attachment id: Int) throws(ProtocolError) -> AckFields {
        guard let index = sceneAttachments.firstIndex(of: id),
              animator.attachment(id) != nil || animator.jointAttachment(id) != nil else {
            throw ProtocolError(.badValue, "field \"attachment\": no attachment with id \(id)")
        }
        if !animator.removeJointAttachment(id) { animator.removeBehavior(id) }
        sceneAttachments.remove(at: index)
        attachmentKinds[id] = nil
        structureChanged = true
        return [("attachment", .number(Double(id)))]
    }
}

extension AttachTarget {
    /// The point on the other item, for an item–item attachment.
    package var offset: Point? {
        if case .body(_, let offset) = self { return offset }
        return nil
    }
}

extension DynamicsError {
    /// The error in the protocol's words (never a Swift enum case).
    package var protocolWords: String {
        switch self {
        case .invalidValue(let text): return text
        case .unknownItem(let id): return "no body with id \(id)"
        case .unknownBehavior(let id): return "no behavior with id \(id)"
        }
    }
}

extension SharedWorld {
    /// The attachment's `id`, `kind` and kind parameters for `scene.attachments`.
    package func describe(_ a: AttachmentBehavior, id: BehaviorID, into info: inout AttachmentInfo) {
        info.id = id
        info.kind = attachmentKinds[id] ?? {
            switch a.kind {
            case .distance: return .distance
            case .limit: return .limit
            case .pin: return .pin
            }
        }()
    }
}
