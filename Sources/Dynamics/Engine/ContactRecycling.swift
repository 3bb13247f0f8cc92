/// Contact recycling (Box2D v3.2's "contact recycling optimization", after the persistent manifolds of PhysX):
/// a contact whose two bodies have barely moved relative to each other since its manifold was computed keeps
/// that manifold — points, feature ids, anchors, normal, impulses — and only moves its separations on by the
/// bodies' motion, as the sub-steps do; the narrow phase runs again once the relative motion passes a
/// tolerance. In a settled stack almost every contact is recycled, which is most of the narrow phase's cost
/// (docs/ENGINE.md, "Persistent contacts").
///
/// The test is Box2D's: neither body turned by more than `maxTurnCos` since, and the relative displacement of
/// B in A's frame plus the relative turn times the larger body extent stays under `distance` for a touching
/// contact (`min(distance, speculative distance)` for one not touching yet, so that no contact is found late).
enum ContactRecycling {
    /// Box2D's `B2_CONTACT_RECYCLE_DISTANCE`: 10 linear slops (5 pt here).
    static let distance = 10 * Tuning.linearSlop
    /// Box2D's `B2_CONTACT_RECYCLE_COS_ANGLE`: turns up to about 11.5° since the manifold.
    static let maxTurnCos = 0.98
}

/// What the recycling test reads of a body: its centre of mass, its rotation and how far its shape reaches
/// from the centre of mass. A boundary segment is `.fixed` (static, at the origin, not turned).
struct RecyclePose {
    var center: Vec2
    var rot: Rot
    var extent: Double

    static let fixed = RecyclePose(center: .zero, rot: .identity, extent: 0)

    init(center: Vec2, rot: Rot, extent: Double) {
        self.center = center
        self.rot = rot
        self.extent = extent
    }

    @inline(__always) init(_ b: Body) {
        center = b.centerOfMass
        rot = b.rot
        // A body that cannot move never adds turn error.
        extent = b.isStatic ? 0 : b.boundingRadius + b.localCentroid.length
    }
}

/// The poses a contact's manifold was computed at: both rotations and B's centre in A's frame. A fresh
/// contact's cache holds NaN rotations, which fail every comparison of the test, so it is never recycled
/// before its first manifold. 48 bytes.
struct RecycleCache {
    var rotA = Rot(c: .nan, s: .nan)
    var rotB = Rot(c: .nan, s: .nan)
    var relativeCenter = Vec2.zero

    init() {}

    init(_ a: RecyclePose, _ b: RecyclePose) {
        rotA = a.rot
        rotB = b.rot
        relativeCenter = a.rot.inverseRotate(b.center - a.center)
    }

    /// Recycles `c`'s manifold if the bodies moved little enough relative to each other since it was computed:
    /// each point's separation is moved on by the motion of its anchors (turned with their bodies) along the
    /// kept normal. Returns false (and changes nothing) when the narrow phase must run.
    @inline(__always) func tryRecycle(_ c: inout Contact, _ a: RecyclePose, _ b: RecyclePose) -> Bool {
        let cosA = a.rot.c * rotA.c + a.rot.s * rotA.s
        let cosB = b.rot.c * rotB.c + b.rot.s * rotB.s
        guard min(cosA, cosB) > ContactRecycling.maxTurnCos else { return false }
        // Each body's turn since the manifold; the sine of their difference is the relative turn.
        let sinA = a.rot.s * rotA.c - a.rot.c * rotA.s, sinB = b.rot.s * rotB.c - b.rot.c * rotB.s
        let turn = sinB * cosA - cosB * sinA
        let moved = (a.rot.inverseRotate(b.center - a.center) - relativeCenter).length
            + max(a.extent, b.extent) * abs(turn)
        let tolerance = c.pointCount > 0 ? ContactRecycling.distance
                                         : min(ContactRecycling.distance, Tuning.speculativeDistance)
        guard moved < tolerance else { return false }
        // Each body's turn since the manifold, applied to its anchors.
        let dqA = Rot(c: cosA, s: sinA), dqB = Rot(c: cosB, s: sinB)
        let dc = b.center - a.center
        if c.pointCount > 0 {
            c.p0.separation = c.p0.baseSeparation + (dc + dqB.rotate(c.p0.anchorB) - dqA.rotate(c.p0.anchorA)).dot(c.normal)
        }
        if c.pointCount > 1 {
            c.p1.separation = c.p1.baseSeparation + (dc + dqB.rotate(c.p1.anchorB) - dqA.rotate(c.p1.anchorA)).dot(c.normal)
        }
        return true
    }
}
