import Dynamics
import NetProtocol

/// The attachment kinds beyond UIKit's iOS 7 pair: pin limits and friction, fixed (weld) and sliding.
extension SharedWorld {
    func configurePinLimits(_ behavior: inout AttachmentBehavior, _ spec: AttachSpec) throws(ProtocolError) {
        if spec.range != nil || spec.frictionTorque != nil {
            throw ProtocolError(.badValue, "pin range and friction_torque are not available yet")
        }
    }

    func configureJointKind(_ behavior: inout AttachmentBehavior, _ spec: AttachSpec, itemA: ItemState,
                            centerB: Vec2?, angleB: Double) throws(ProtocolError) {
        throw ProtocolError(.badValue, "attachment kind \"\(spec.kind.rawValue)\" is not available yet")
    }
}
