import Dynamics
import NetProtocol

/// `--state` (docs/STATE.md): the whole world as one JSON document, numbers at full precision, so that a
/// restored world says exactly what the saved one said.
///
/// Guarantees: the document holds the scene name, every item (shape, size, pose, velocities, every
/// property, colour), every behavior the server made (gravity, collision with mode, bounds and boundaries,
/// pushes, snaps, fields, groups, listed attachments of every kind with a joint's resolved frames) with its
/// id, in id order, the id counters, the
/// palette position, the simulated time and whether the world is held. Drags are not saved: they belong to
/// connections, which a restart ends. It ends with an `end` member so a truncated file is never taken for
/// a whole one.
extension SharedWorld {
    package static let stateFormat = "dynserver-state"
    package static let stateVersion = 1

    package func encodeState(tick: UInt64) -> [UInt8] {
        var w = JSONWriter(capacity: 64 * 1024)
        w.beginObject()
        w.key("format"); w.string(SharedWorld.stateFormat)
        w.key("version"); w.int(SharedWorld.stateVersion)
        w.key("world"); w.beginObject(); w.key("width"); w.number(width); w.key("height"); w.number(height); w.endObject()
        w.key("tick"); w.uint(tick)
        w.key("scene"); w.string(sceneName)
        w.key("elapsed_time"); w.number(animator.elapsedTime)
        w.key("step_count"); w.int(animator.stepCount)
        w.key("rest_time"); w.number(restTime)
        w.key("held"); w.bool(held)
        w.key("running"); w.bool(animator.isRunning)
        w.key("palette_index"); w.int(paletteIndex)
        w.key("next_item_id"); w.int(animator.nextItemIDValue)
        w.key("next_behavior_id"); w.int(animator.nextBehaviorIDValue)
        w.key("items"); w.beginArray()
        for id in animator.itemIDs {
            guard let item = animator.item(id) else { continue }
            writeItem(item, into: &w)
        }
        w.endArray()
        w.key("behaviors"); w.beginArray()
        writeBehaviors(into: &w)
        w.endArray()
        w.key("end"); w.bool(true)
        w.endObject()
        w.newline()
        return w.bytes
    }

    private func writeItem(_ item: ItemState, into w: inout JSONWriter) {
        let p = item.properties
        w.beginObject()
        w.key("id"); w.int(item.id)
        switch item.shape {
        case .rect: w.key("shape"); w.string("rect")
        case .ellipse: w.key("shape"); w.string("ellipse")
        case .polygon(let points):
            w.key("shape"); w.string("polygon")
            w.key("points"); writeVectors(points, into: &w)
        }
        w.key("width"); w.number(item.width)
        w.key("height"); w.number(item.height)
        w.key("x"); w.number(item.center.x)
        w.key("y"); w.number(item.center.y)
        w.key("angle"); w.number(item.angle)
        w.key("vx"); w.number(item.velocity.x)
        w.key("vy"); w.number(item.velocity.y)
        w.key("av"); w.number(item.angularVelocity)
        w.key("elasticity"); w.number(p.elasticity)
        w.key("friction"); w.number(p.friction)
        w.key("density"); w.number(p.density)
        w.key("resistance"); w.number(p.resistance)
        w.key("angular_resistance"); w.number(p.angularResistance)
        w.key("allows_rotation"); w.bool(p.allowsRotation)
        w.key("anchored"); w.bool(p.anchored)
        w.key("charge"); w.number(p.charge)
        w.key("color"); w.string(colors[item.id] ?? Palette.ground)
        w.endObject()
    }

    /// Every behavior the server keeps track of, ascending by id (the order the animator applies them).
    private func writeBehaviors(into w: inout JSONWriter) {
        var entries: [(BehaviorID, (inout JSONWriter) -> Void)] = []
        if let g = animator.gravity(gravityID) {
            entries.append((gravityID, { w in
                w.key("type"); w.string("gravity")
                w.key("items"); SharedWorld.writeSelection(g.items, into: &w)
                w.key("dx"); w.number(g.direction.x)
                w.key("dy"); w.number(g.direction.y)
            }))
        }
        if let c = animator.collision(collisionID) {
            entries.append((collisionID, { w in
                w.key("type"); w.string("collision")
                w.key("items"); SharedWorld.writeSelection(c.items, into: &w)
                w.key("mode"); w.string(c.mode.rawValue)
                w.key("bounds"); w.bool(c.translatesReferenceBoundsIntoBoundary)
                w.key("insets"); w.beginObject()
                w.key("top"); w.number(c.boundaryInsets.top)
                w.key("left"); w.number(c.boundaryInsets.left)
                w.key("bottom"); w.number(c.boundaryInsets.bottom)
                w.key("right"); w.number(c.boundaryInsets.right)
                w.endObject()
                w.key("boundaries"); w.beginArray()
                for b in c.boundaries {
                    w.beginObject()
                    w.key("id"); w.string(b.id)
                    w.key("points"); SharedWorld.writeVectors(b.points, into: &w)
                    w.key("closed"); w.bool(b.closed)
                    w.endObject()
                }
                w.endArray()
            }))
        }
        for (table, mode) in [(continuousPushes, "continuous"), (instantPushes, "instantaneous")] {
            for (body, id) in table.sorted(by: { $0.key < $1.key }) {
                guard let push = animator.push(id) else { continue }
                entries.append((id, { w in
                    w.key("type"); w.string("push")
                    w.key("mode"); w.string(mode)
                    w.key("body"); w.int(body)
                    w.key("active"); w.bool(push.active)
                    w.key("angle"); w.number(push.angle)
                    w.key("magnitude"); w.number(push.magnitude)
                    if let offset = push.targetOffsets[body] {
                        w.key("offset"); w.beginObject(); w.key("x"); w.number(offset.x); w.key("y"); w.number(offset.y); w.endObject()
                    }
                }))
            }
        }
        for (_, id) in snaps.sorted(by: { $0.key < $1.key }) {
            guard let snap = animator.snap(id) else { continue }
            entries.append((id, { w in
                w.key("type"); w.string("snap")
                w.key("body"); w.int(snap.item)
                w.key("x"); w.number(snap.point.x)
                w.key("y"); w.number(snap.point.y)
                w.key("damping"); w.number(snap.damping)
            }))
        }
        for id in animator.fieldIDs {
            guard let f = animator.field(id) else { continue }
            entries.append((id, { w in
                w.key("type"); w.string("field")
                w.key("kind"); w.string(f.kind.rawValue)
                w.key("position"); SharedWorld.writeVector(f.position, into: &w)
                w.key("strength"); w.number(f.strength)
                w.key("falloff"); w.number(f.falloff)
                w.key("min_radius"); w.number(f.minimumRadius)
                w.key("region"); SharedWorld.writeRegion(f.region, into: &w)
                w.key("direction"); SharedWorld.writeVector(f.direction, into: &w)
                w.key("smoothness"); w.number(f.smoothness)
                w.key("animation_speed"); w.number(f.animationSpeed)
                w.key("items"); SharedWorld.writeSelection(f.items, into: &w)
                w.key("seed"); w.uint(f.seed)
            }))
        }
        for id in animator.groupIDs {
            guard let items = animator.groupItems(id) else { continue }
            entries.append((id, { w in
                w.key("type"); w.string("group")
                w.key("items"); w.beginArray(); for item in items { w.int(item) }; w.endArray()
            }))
        }
        for id in sceneAttachments {
            if let joint = animator.jointAttachment(id), let frames = animator.jointFrames(id) {
                entries.append((id, { w in SharedWorld.writeJoint(joint, frames: frames, into: &w) }))
                continue
            }
            guard let a = animator.attachment(id) else { continue }
            let kindName = attachmentKinds[id]
            entries.append((id, { w in
                w.key("type"); w.string("attachment")
                w.key("kind"); w.string(SharedWorld.kindName(a.kind))
                if let kindName { w.key("listed_kind"); w.string(kindName.rawValue) }
                w.key("body"); w.int(a.item)
                w.key("offset"); SharedWorld.writeVector(a.offset, into: &w)
                if let anchor = a.anchor { w.key("anchor"); SharedWorld.writeVector(anchor, into: &w) }
                if let other = a.otherItem { w.key("to_body"); w.int(other) }
                w.key("to_offset"); SharedWorld.writeVector(a.otherOffset, into: &w)
                if let length = a.length { w.key("length"); w.number(length) }
                w.key("frequency"); w.number(a.frequency)
                w.key("damping"); w.number(a.damping)
            }))
        }
        for (id, write) in entries.sorted(by: { $0.0 < $1.0 }) {
            w.beginObject()
            w.key("id"); w.int(id)
            write(&w)
            w.endObject()
        }
    }

    package static func kindName(_ kind: AttachmentBehavior.Kind) -> String {
        switch kind {
        case .distance: return "distance"
        case .limit: return "limit"
        case .pin: return "pin"
        }
    }

    package static func writeSelection(_ selection: ItemSelection, into w: inout JSONWriter) {
        switch selection {
        case .all: w.string("all")
        case .only(let ids):
            w.beginArray()
            for id in ids { w.int(id) }
            w.endArray()
        }
    }

    package static func writeJoint(_ joint: JointAttachment, frames: JointFrames, into w: inout JSONWriter) {
        w.key("type"); w.string("joint")
        var anchor: Vec2?
        var range: ClosedRange<Double>?
        switch joint {
        case .fixed(let b):
            w.key("kind"); w.string("fixed")
            anchor = b.anchor
        case .sliding(let b):
            w.key("kind"); w.string("sliding")
            anchor = b.anchor
            range = b.range
            w.key("axis"); writeVector(b.axis, into: &w)
        case .pin(let b):
            w.key("kind"); w.string("pin")
            range = b.range
            w.key("point"); writeVector(b.point, into: &w)
            w.key("friction_torque"); w.number(b.frictionTorque)
        }
        w.key("body"); w.int(joint.item)
        if let other = joint.otherItem { w.key("to_body"); w.int(other) }
        if let anchor { w.key("anchor"); writeVector(anchor, into: &w) }
        if let range { w.key("range"); w.beginArray(); w.number(range.lowerBound); w.number(range.upperBound); w.endArray() }
        w.key("frames"); w.beginObject()
        w.key("local_a"); writeVector(frames.localA, into: &w)
        w.key("local_b"); writeVector(frames.localB, into: &w)
        w.key("axis_a"); writeVector(frames.axisA, into: &w)
        w.key("reference_angle"); w.number(frames.referenceAngle)
        w.endObject()
    }

    package static func writeRegion(_ region: FieldRegion, into w: inout JSONWriter) {
        w.beginObject()
        switch region {
        case .infinite: w.key("infinite"); w.bool(true)
        case .circle(let r): w.key("circle"); w.number(r)
        case .rect(let width, let height): w.key("rect"); w.beginArray(); w.number(width); w.number(height); w.endArray()
        case .inverse(let inner): w.key("inverse"); writeRegion(inner, into: &w)
        case .union(let a, let b): w.key("union"); w.beginArray(); writeRegion(a, into: &w); writeRegion(b, into: &w); w.endArray()
        case .intersection(let a, let b):
            w.key("intersection"); w.beginArray(); writeRegion(a, into: &w); writeRegion(b, into: &w); w.endArray()
        }
        w.endObject()
    }

    package static func writeVector(_ v: Vec2, into w: inout JSONWriter) {
        w.beginObject(); w.key("x"); w.number(v.x); w.key("y"); w.number(v.y); w.endObject()
    }

    package static func writeVectors(_ points: [Vec2], into w: inout JSONWriter) {
        w.beginArray()
        for p in points {
            w.beginArray(); w.number(p.x); w.number(p.y); w.endArray()
        }
        w.endArray()
    }

    private func writeVectors(_ points: [Vec2], into w: inout JSONWriter) { SharedWorld.writeVectors(points, into: &w) }
}
