import Dynamics
import NetProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `attach`, `anchor` and `detach` (docs/PROTOCOL.md): every listed attachment, the scenes' own included, is
/// addressed by its behavior id, and any one with an anchor can be moved.
extension SharedWorld {
    func attach(_ spec: AttachSpec) throws(ProtocolError) -> AckFields {
        try requireBody(spec.body)
        guard let itemA = animator.item(spec.body) else { throw ProtocolError(.unknownBody, "no body with id \(spec.body)") }
        var behavior = AttachmentBehavior(item: spec.body, offset: spec.offset.map(Vec2.init) ?? .zero)
        var centerB: Vec2?
        var angleB = 0.0
        switch spec.target {
        case .anchor(let point):
            behavior.anchor = Vec2(point)
        case .body(let other, let offset):
            guard contains(other) else { throw ProtocolError(.unknownBody, "no body with id \(other) (field \"to_body\")") }
            behavior.otherItem = other
            behavior.otherOffset = offset.map(Vec2.init) ?? .zero
            centerB = animator.item(other)?.center
            angleB = animator.item(other)?.angle ?? 0
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
        case .pin:
            behavior.kind = .pin
            // The shared point: given, else the anchor, else the midpoint of the two centers.
            let point: Vec2
            if let p = spec.point {
                point = Vec2(p)
            } else if let anchor = behavior.anchor {
                point = anchor
            } else {
                point = (itemA.center + (centerB ?? itemA.center)) * 0.5
            }
            behavior.offset = localPoint(point, center: itemA.center, angle: itemA.angle)
            if let centerB {
                behavior.otherOffset = localPoint(point, center: centerB, angle: angleB)
            } else {
                behavior.anchor = point
            }
            try configurePinLimits(&behavior, spec)
        case .fixed, .sliding:
            try configureJointKind(&behavior, spec, itemA: itemA, centerB: centerB, angleB: angleB)
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

    func moveAnchor(attachment id: Int, x: Double, y: Double) throws(ProtocolError) -> AckFields {
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

    func detach(attachment id: Int) throws(ProtocolError) -> AckFields {
        guard let index = sceneAttachments.firstIndex(of: id), animator.attachment(id) != nil else {
            throw ProtocolError(.badValue, "field \"attachment\": no attachment with id \(id)")
        }
        animator.removeBehavior(id)
        sceneAttachments.remove(at: index)
        attachmentKinds[id] = nil
        structureChanged = true
        return [("attachment", .number(Double(id)))]
    }

    /// `world` in the frame of an item at `center` turned by `angle`.
    func localPoint(_ world: Vec2, center: Vec2, angle: Double) -> Vec2 {
        let d = world - center
        let c = cos(angle), s = sin(angle)
        return Vec2(c * d.x + s * d.y, -s * d.x + c * d.y)
    }
}

extension DynamicsError {
    /// The error in the protocol's words (never a Swift enum case).
    var protocolWords: String {
        switch self {
        case .invalidValue(let text): return text
        case .unknownItem(let id): return "no body with id \(id)"
        case .unknownBehavior(let id): return "no behavior with id \(id)"
        }
    }
}

extension SharedWorld {
    /// The attachment's `id`, `kind` and kind parameters for `scene.attachments`.
    func describe(_ a: AttachmentBehavior, id: BehaviorID, into info: inout AttachmentInfo) {
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
