import Dynamics
import NetProtocol

/// The attachment kinds beyond UIKit's iOS 7 pair (docs/UIKIT.md, Attachments): fixed (a weld), sliding (a
/// prismatic joint with a range) and pin (a revolute joint with a range and friction torque).
extension SharedWorld {
    package func attachJoint(_ spec: AttachSpec, itemA: ItemState) throws(ProtocolError) -> BehaviorID {
        var other: ItemID?
        var anchor: Vec2?
        switch spec.target {
        case .anchor(let point): anchor = Vec2(point)
        case .body(let id, _): other = id
        }
        do {
            switch spec.kind {
            case .fixed:
                return try animator.add(FixedAttachmentBehavior(item: spec.body, otherItem: other, anchor: anchor))
            case .sliding:
                let axis = spec.axis.map { Vec2($0.dx, $0.dy) } ?? Vec2(1, 0)
                return try animator.add(SlidingAttachmentBehavior(item: spec.body, otherItem: other, anchor: anchor, axis: axis,
                                                                  range: spec.range.map { $0.min...$0.max }))
            default:
                // The shared point: given, else the anchor, else the midpoint of the two centers.
                var point = anchor ?? itemA.center
                if let p = spec.point {
                    point = Vec2(p)
                } else if let other, let center = animator.item(other)?.center {
                    point = (itemA.center + center) * 0.5
                }
                return try animator.add(PinAttachmentBehavior(item: spec.body, otherItem: other, point: point,
                                                              range: spec.range.map { $0.min...$0.max },
                                                              frictionTorque: spec.frictionTorque ?? 0))
            }
        } catch {
            throw ProtocolError(.badValue, "attach rejected: \(error.protocolWords)")
        }
    }

    /// `scene.attachments` entry of a fixed, sliding or pin attachment.
    package func jointAttachmentInfo(_ id: BehaviorID) -> AttachmentInfo? {
        guard let joint = animator.jointAttachment(id), let offsets = animator.jointAttachmentOffsets(id) else { return nil }
        var anchor: Point?
        switch joint {
        case .fixed(let b): anchor = b.anchor.map(Point.init)
        case .sliding(let b): anchor = b.anchor.map(Point.init)
        case .pin(let b): anchor = b.otherItem == nil ? Point(b.point) : nil
        }
        var info = AttachmentInfo(body: joint.item, anchor: anchor, toBody: joint.otherItem, offset: Point(offsets.offset),
                                  toOffset: offsets.otherOffset.map(Point.init), length: 0, frequency: 0, damping: 0)
        info.id = id
        switch joint {
        case .fixed:
            info.kind = .fixed
        case .sliding(let b):
            info.kind = .sliding
            info.axis = DirectionVector(b.axis.x, b.axis.y)
            info.range = b.range.map { ValueRange($0.lowerBound, $0.upperBound) }
        case .pin(let b):
            info.kind = .pin
            info.point = Point(b.point)
            info.range = b.range.map { ValueRange($0.lowerBound, $0.upperBound) }
            info.frictionTorque = b.frictionTorque
        }
        return info
    }
}
