/// A fixed, sliding or pin attachment as stored by the animator.
public enum JointAttachment: Equatable, Sendable {
    case fixed(FixedAttachmentBehavior)
    case sliding(SlidingAttachmentBehavior)
    case pin(PinAttachmentBehavior)

    public var item: ItemID {
        switch self {
        case .fixed(let b): return b.item
        case .sliding(let b): return b.item
        case .pin(let b): return b.item
        }
    }

    public var otherItem: ItemID? {
        switch self {
        case .fixed(let b): return b.otherItem
        case .sliding(let b): return b.otherItem
        case .pin(let b): return b.otherItem
        }
    }
}

/// A joint attachment with the frames resolved when it was added (the relative pose it keeps).
struct JointAttachmentEntry {
    var id: BehaviorID
    var attachment: JointAttachment
    var localA: Vec2
    var localB: Vec2
    var axisA: Vec2
    var referenceAngle: Double
}

/// Fixed (weld), sliding (prismatic) and pin (revolute, with limits and friction) attachments: stored apart
/// from the other behaviors, addressed by ids from the same counter, solved by `ConstraintJoint`
/// (docs/UIKIT.md, Attachments). UIKit's torque unit N·m is 10 000 engine units (1 m = 100 pt).
extension DynamicAnimator {
    static let torquePerNewtonMeter = 10_000.0
    /// Farthest a joint attachment's point may be from the centers of the items it joins, in points.
    static let maxJointReach = 10_000.0

    public func add(_ b: FixedAttachmentBehavior) throws(DynamicsError) -> BehaviorID {
        try addJoint(.fixed(b))
    }

    public func add(_ b: SlidingAttachmentBehavior) throws(DynamicsError) -> BehaviorID {
        try addJoint(.sliding(b))
    }

    public func add(_ b: PinAttachmentBehavior) throws(DynamicsError) -> BehaviorID {
        try addJoint(.pin(b))
    }

    public func jointAttachment(_ id: BehaviorID) -> JointAttachment? {
        jointAttachments.first { $0.id == id }?.attachment
    }

    /// Moves the world point of an item–world joint attachment (the weld point, the rail, the pin); every
    /// other parameter keeps the value it had when the attachment was added.
    public func moveJointAnchor(_ id: BehaviorID, to point: Vec2) throws(DynamicsError) {
        guard let k = jointAttachments.firstIndex(where: { $0.id == id }) else { throw .unknownBehavior(id) }
        try checkCoordinate(point, "anchor")
        var e = jointAttachments[k]
        guard e.attachment.otherItem == nil else { throw .invalidValue("an attachment between two items has no anchor") }
        let delta = point - anchorPoint(e.attachment)
        switch e.attachment {
        case .fixed(var b): b.anchor = point; e.attachment = .fixed(b)
        case .sliding(var b): b.anchor = point; e.attachment = .sliding(b)
        case .pin(var b): b.point = point; e.attachment = .pin(b)
        }
        e.localA = e.localA + delta
        jointAttachments[k] = e
        constraintJointsDirty = true
        touched(indexOf[e.attachment.item])
    }

    @discardableResult public func removeJointAttachment(_ id: BehaviorID) -> Bool {
        guard let k = jointAttachments.firstIndex(where: { $0.id == id }) else { return false }
        let e = jointAttachments.remove(at: k)
        constraintJointsDirty = true
        touched(indexOf[e.attachment.item])
        if let o = e.attachment.otherItem { touched(indexOf[o]) }
        return true
    }

    private func anchorPoint(_ a: JointAttachment) -> Vec2 {
        switch a {
        case .fixed(let b): return b.anchor ?? .zero
        case .sliding(let b): return b.anchor ?? .zero
        case .pin(let b): return b.point
        }
    }

    private func addJoint(_ a: JointAttachment) throws(DynamicsError) -> BehaviorID {
        let ib = try index(a.item)
        var ia = -1
        if let other = a.otherItem {
            guard other != a.item else { throw .invalidValue("an item cannot attach to itself") }
            ia = try index(other)
        }
        let bodyB = world.bodies[ib]
        let centerA = ia >= 0 ? world.bodies[ia].center : .zero
        let rotA = ia >= 0 ? world.bodies[ia].rot : Rot.identity
        let angleA = ia >= 0 ? world.bodies[ia].angle : 0
        // The world point the joint holds, and the rail's axis for a slide.
        var point: Vec2, axis = Vec2(1, 0), pointOnB: Vec2
        switch a {
        case .fixed(let b):
            point = b.anchor ?? (ia >= 0 ? (centerA + bodyB.center) * 0.5 : bodyB.center)
            pointOnB = point
        case .sliding(let b):
            try checkCoordinate(b.axis, "axis")
            guard b.axis.lengthSquared > 0 else { throw .invalidValue("the axis must not be zero") }
            if let r = b.range {
                guard r.lowerBound.isFinite, r.upperBound.isFinite, r.contains(0) else {
                    throw .invalidValue("the range must be finite and contain 0")
                }
            }
            axis = b.axis.normalized
            point = b.anchor ?? bodyB.center
            pointOnB = b.anchor ?? bodyB.center
        case .pin(let b):
            point = b.point
            pointOnB = b.point
            if let r = b.range {
                guard r.lowerBound.isFinite, r.upperBound.isFinite else { throw .invalidValue("the range must be finite") }
            }
            guard b.frictionTorque.isFinite, b.frictionTorque >= 0 else { throw .invalidValue("friction torque must be >= 0") }
        }
        try checkCoordinate(point, "attachment point")
        // A lever arm beyond this makes the joint's effective mass lose every significant digit.
        let reach = DynamicAnimator.maxJointReach
        guard (pointOnB - bodyB.center).length <= reach, ia < 0 || (point - centerA).length <= reach else {
            throw .invalidValue("the attachment point must be within \(Int(reach)) pt of the items it joins")
        }
        let entry = JointAttachmentEntry(
            id: nextBehaviorID, attachment: a,
            localA: ia >= 0 ? rotA.inverseRotate(point - centerA) : point,
            localB: bodyB.rot.inverseRotate(pointOnB - bodyB.center),
            axisA: rotA.inverseRotate(axis), referenceAngle: bodyB.angle - angleA)
        nextBehaviorID += 1
        jointAttachments.append(entry)
        constraintJointsDirty = true
        touched(ib)
        if ia >= 0 { touched(ia) }
        return entry.id
    }

    /// Forgets the joint attachments that hold a removed item (call after `indexOf` is updated).
    func dropJointAttachments(holding id: ItemID) {
        dropFromGroups(id)
        jointAttachments.removeAll { $0.attachment.item == id || $0.attachment.otherItem == id }
        constraintJointsDirty = true
        rebuildConstraintJointsIfNeeded()
    }

    /// Translates the joint attachments into solver joints, keeping the warm-start impulses of those that stay.
    func rebuildConstraintJointsIfNeeded() {
        guard constraintJointsDirty else { return }
        constraintJointsDirty = false
        let old = world.constraintJoints
        var joints: [ConstraintJoint] = []
        for e in jointAttachments {
            guard let ib = indexOf[e.attachment.item] else { continue }
            let ia = e.attachment.otherItem.flatMap { indexOf[$0] } ?? -1
            var j = ConstraintJoint(behaviorID: e.id, bodyA: Int32(ia), bodyB: Int32(ib), localA: e.localA, localB: e.localB,
                                    axisA: e.axisA, referenceAngle: e.referenceAngle)
            switch e.attachment {
            case .fixed:
                j.point = true
                j.lockAngle = true
            case .sliding(let b):
                j.slide = true
                j.lockAngle = true
                if let r = b.range {
                    j.hasTranslationLimits = true
                    j.translationLower = r.lowerBound
                    j.translationUpper = r.upperBound
                }
            case .pin(let b):
                j.point = true
                if let r = b.range {
                    j.hasAngleLimits = true
                    j.angleLower = r.lowerBound
                    j.angleUpper = r.upperBound
                }
                j.maxFrictionTorque = b.frictionTorque * DynamicAnimator.torquePerNewtonMeter
            }
            if let previous = old.first(where: { $0.behaviorID == e.id }) {
                j.linearImpulse = previous.linearImpulse
                j.angleImpulse = previous.angleImpulse
                j.lowerAngleImpulse = previous.lowerAngleImpulse
                j.upperAngleImpulse = previous.upperAngleImpulse
                j.frictionImpulse = previous.frictionImpulse
                j.perpImpulse = previous.perpImpulse
                j.lowerImpulse = previous.lowerImpulse
                j.upperImpulse = previous.upperImpulse
            }
            joints.append(j)
        }
        world.constraintJoints = joints
        world.jointsChanged()
    }
}

extension DynamicAnimator {
    /// The joint attachment's points as resolved when it was added: on the item (its frame) and on the other
    /// item (that item's frame; nil for an item–world attachment).
    public func jointAttachmentOffsets(_ id: BehaviorID) -> (offset: Vec2, otherOffset: Vec2?)? {
        guard let e = jointAttachments.first(where: { $0.id == id }) else { return nil }
        return (e.localB, e.attachment.otherItem == nil ? nil : e.localA)
    }
}
