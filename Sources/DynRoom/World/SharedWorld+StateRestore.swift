import Dynamics
import NetProtocol

/// Why a state file could not be restored, in words for the log.
package struct StateError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Restoring `--state` (docs/STATE.md): the world is rebuilt from the document with the same ids, in the same
/// order, at the same simulated time.
///
/// Guarantees: the whole document is read and checked before the world is touched (format, version, the
/// `end` marker, the world size, every field's type); a restored world gives the same `scene` and the same
/// snapshot as the saved one at the moment it was saved; ids continue from the saved counters, so none is
/// ever reused. On error the world may be half built: the caller loads a scene, which clears it.
extension SharedWorld {
    /// Rebuilds the world from `bytes`; returns the saved tick.
    package func restoreState(_ bytes: [UInt8]) throws(StateError) -> UInt64 {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes, maxDepth: 16)
        } catch {
            throw StateError("not valid JSON (\(error.message)): truncated or corrupt")
        }
        guard case let .object(members) = parsed else { throw StateError("not a JSON object") }
        let root = StateFields(members, path: "state")
        guard (try? root.string("format")) == SharedWorld.stateFormat else { throw StateError("not a dynserver state file") }
        let version = try root.int("version")
        guard version == SharedWorld.stateVersion else { throw StateError("state version \(version), this server reads \(SharedWorld.stateVersion)") }
        guard (try? root.bool("end")) == true else { throw StateError("no end marker: the file is truncated") }
        let size = try root.object("world")
        let (w, h) = (try size.number("width"), try size.number("height"))
        guard w == width, h == height else { throw StateError("saved for a \(w)x\(h) world, this one is \(width)x\(height)") }
        let items = try root.objects("items").map { (f: StateFields) throws(StateError) in try SavedItem(f) }
        let behaviors = try root.objects("behaviors").map { (f: StateFields) throws(StateError) in try SavedBehavior(f) }
        guard behaviors.contains(where: { if case .gravity = $0.kind { true } else { false } }),
              behaviors.contains(where: { if case .collision = $0.kind { true } else { false } })
        else { throw StateError("the world-wide gravity or collision behavior is missing") }
        let tick = try root.int("tick")
        let elapsed = try root.number("elapsed_time"), steps = try root.int("step_count")
        let rest = try root.number("rest_time"), isHeld = try root.bool("held"), running = try root.bool("running")
        let palette = try root.int("palette_index"), name = try root.string("scene")
        let nextItem = try root.int("next_item_id"), nextBehavior = try root.int("next_behavior_id")
        guard tick >= 0, rest.isFinite, rest >= 0, palette >= 0 else { throw StateError("a counter is negative") }

        do {
            try rebuild(items: items, behaviors: behaviors)
            try animator.setNextItemID(max(nextItem, animator.nextItemIDValue))
            try animator.setNextBehaviorID(max(nextBehavior, animator.nextBehaviorIDValue))
            try animator.restoreClock(elapsedTime: elapsed, stepCount: steps)
            if !running { animator.restoreAtRest() }
        } catch let error as StateError {
            throw error
        } catch let error as DynamicsError {
            throw StateError("the saved world is invalid: \(error.protocolWords)")
        } catch {
            throw StateError("the saved world is invalid: \(error)")
        }
        restTime = rest
        held = isHeld
        paletteIndex = palette
        sceneName = name
        structureChanged = true
        return UInt64(tick)
    }

    private func rebuild(items: [SavedItem], behaviors: [SavedBehavior]) throws {
        animator.removeAll()
        colors.removeAll()
        sceneAttachments.removeAll()
        continuousPushes.removeAll()
        instantPushes.removeAll()
        snaps.removeAll()
        drags.removeAll()
        attachmentKinds.removeAll()
        for item in items.sorted(by: { $0.id < $1.id }) {
            try animator.setNextItemID(item.id)
            _ = try animator.addItem(shape: item.shape, width: item.width, height: item.height, center: item.center,
                                     angle: item.angle, velocity: item.velocity, angularVelocity: item.angularVelocity,
                                     properties: item.properties)
            colors[item.id] = item.color
        }
        for behavior in behaviors.sorted(by: { $0.id < $1.id }) {
            try animator.setNextBehaviorID(behavior.id)
            switch behavior.kind {
            case .gravity(let g):
                gravityID = animator.add(g)
            case .collision(let c):
                collisionID = animator.add(c)
            case let .push(body, continuous, push):
                guard contains(body) else { throw StateError("a push holds body \(body), which is not saved") }
                let id = try animator.add(push)
                if continuous { continuousPushes[body] = id } else { instantPushes[body] = id }
            case .snap(let snap):
                guard contains(snap.item) else { throw StateError("a snap holds body \(snap.item), which is not saved") }
                snaps[snap.item] = try animator.add(snap)
            case let .attachment(a, listed):
                let id = try animator.add(a)
                sceneAttachments.append(id)
                if let listed { attachmentKinds[id] = listed }
            case .field(let field):
                _ = try animator.add(field)
            case .group(let group):
                _ = try animator.add(group)
            case let .joint(joint, frames, listed):
                let id: BehaviorID
                switch joint {
                case .fixed(let b): id = try animator.add(b)
                case .sliding(let b): id = try animator.add(b)
                case .pin(let b): id = try animator.add(b)
                }
                try animator.restoreJointFrames(id, frames)
                sceneAttachments.append(id)
                attachmentKinds[id] = listed
            }
        }
    }
}

/// One saved item, checked.
private struct SavedItem {
    package let id: Int
    package let shape: ItemShape
    package let width: Double, height: Double
    package let center: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double
    package let properties: ItemProperties
    package let color: String

    package init(_ f: StateFields) throws(StateError) {
        id = try f.int("id")
        switch try f.string("shape") {
        case "rect": shape = .rect
        case "ellipse": shape = .ellipse
        case "polygon": shape = .polygon(try f.vectors("points"))
        case let other: throw StateError("\(f.path): unknown shape \"\(other)\"")
        }
        width = try f.number("width")
        height = try f.number("height")
        center = Vec2(try f.number("x"), try f.number("y"))
        angle = try f.number("angle")
        velocity = Vec2(try f.number("vx"), try f.number("vy"))
        angularVelocity = try f.number("av")
        var p = ItemProperties()
        p.elasticity = try f.number("elasticity")
        p.friction = try f.number("friction")
        p.density = try f.number("density")
        p.resistance = try f.number("resistance")
        p.angularResistance = try f.number("angular_resistance")
        p.allowsRotation = try f.bool("allows_rotation")
        p.anchored = try f.bool("anchored")
        p.charge = try f.number("charge")
        properties = p
        color = try f.string("color")
    }
}

/// One saved behavior, checked.
private struct SavedBehavior {
    package enum Kind {
        case gravity(GravityBehavior)
        case collision(CollisionBehavior)
        case push(body: Int, continuous: Bool, PushBehavior)
        case snap(SnapBehavior)
        case attachment(AttachmentBehavior, listed: AttachmentKindName?)
        case field(FieldBehavior)
        case group(ItemGroupBehavior)
        case joint(JointAttachment, JointFrames, listed: AttachmentKindName)
    }

    package let id: Int
    package let kind: Kind

    package init(_ f: StateFields) throws(StateError) {
        id = try f.int("id")
        switch try f.string("type") {
        case "gravity":
            kind = .gravity(GravityBehavior(items: try f.selection("items"), direction: Vec2(try f.number("dx"), try f.number("dy"))))
        case "collision":
            guard let mode = CollisionMode(rawValue: try f.string("mode")) else { throw StateError("\(f.path): unknown collision mode") }
            let i = try f.object("insets")
            var c = CollisionBehavior(items: try f.selection("items"), mode: mode,
                                      translatesReferenceBoundsIntoBoundary: try f.bool("bounds"),
                                      boundaryInsets: EdgeInsets(top: try i.number("top"), left: try i.number("left"),
                                                                 bottom: try i.number("bottom"), right: try i.number("right")))
            for b in try f.objects("boundaries") {
                c.addBoundary(id: try b.string("id"), points: try b.vectors("points"), closed: try b.bool("closed"))
            }
            kind = .collision(c)
        case "push":
            let body = try f.int("body")
            let mode = try f.string("mode")
            guard mode == "continuous" || mode == "instantaneous" else { throw StateError("\(f.path): unknown push mode") }
            var push = PushBehavior(items: [body], mode: mode == "continuous" ? .continuous : .instantaneous)
            push.active = try f.bool("active")
            push.angle = try f.number("angle")
            push.magnitude = try f.number("magnitude")
            if f.has("offset") { push.targetOffsets[body] = try f.vector("offset") }
            kind = .push(body: body, continuous: mode == "continuous", push)
        case "snap":
            kind = .snap(SnapBehavior(item: try f.int("body"), point: Vec2(try f.number("x"), try f.number("y")),
                                      damping: try f.number("damping")))
        case "attachment":
            let k: AttachmentBehavior.Kind
            switch try f.string("kind") {
            case "distance": k = .distance
            case "limit": k = .limit
            case "pin": k = .pin
            case let other: throw StateError("\(f.path): unknown attachment kind \"\(other)\"")
            }
            let listed = f.has("listed_kind") ? AttachmentKindName(rawValue: try f.string("listed_kind")) : nil
            let a = AttachmentBehavior(item: try f.int("body"), offset: try f.vector("offset"),
                                       anchor: f.has("anchor") ? try f.vector("anchor") : nil,
                                       otherItem: f.has("to_body") ? try f.int("to_body") : nil,
                                       otherOffset: try f.vector("to_offset"),
                                       length: f.has("length") ? try f.number("length") : nil,
                                       frequency: try f.number("frequency"), damping: try f.number("damping"), kind: k)
            kind = .attachment(a, listed: listed)
        case "field":
            guard let fieldKind = FieldKind(rawValue: try f.string("kind")) else { throw StateError("\(f.path): unknown field kind") }
            var field = FieldBehavior(kind: fieldKind, position: try f.vector("position"), strength: try f.number("strength"),
                                      items: try f.selection("items"))
            field.falloff = try f.number("falloff")
            field.minimumRadius = try f.number("min_radius")
            field.region = try StateFields.region(f.raw("region"), path: f.path)
            field.direction = try f.vector("direction")
            field.smoothness = try f.number("smoothness")
            field.animationSpeed = try f.number("animation_speed")
            let seed = try f.number("seed")
            guard seed >= 0, seed <= 9_007_199_254_740_992, seed == seed.rounded() else { throw StateError("\(f.path).seed: not a count") }
            field.seed = UInt64(seed)
            kind = .field(field)
        case "group":
            guard case let .array(elements)? = f.raw("items") else { throw StateError("\(f.path).items: not a list") }
            var items: [ItemID] = []
            for element in elements {
                guard case let .number(v) = element, v == v.rounded() else { throw StateError("\(f.path).items: not a list of ids") }
                items.append(Int(v))
            }
            kind = .group(ItemGroupBehavior(items: items))
        case "joint":
            let body = try f.int("body")
            let other = f.has("to_body") ? try f.int("to_body") : nil
            let anchor = f.has("anchor") ? try f.vector("anchor") : nil
            var range: ClosedRange<Double>?
            if f.has("range") {
                let r = try f.vectors2("range")
                guard r.0 <= r.1 else { throw StateError("\(f.path).range: min above max") }
                range = r.0...r.1
            }
            let joint: JointAttachment
            let listed: AttachmentKindName
            switch try f.string("kind") {
            case "fixed":
                joint = .fixed(FixedAttachmentBehavior(item: body, otherItem: other, anchor: anchor))
                listed = .fixed
            case "sliding":
                joint = .sliding(SlidingAttachmentBehavior(item: body, otherItem: other, anchor: anchor, axis: try f.vector("axis"), range: range))
                listed = .sliding
            case "pin":
                joint = .pin(PinAttachmentBehavior(item: body, otherItem: other, point: try f.vector("point"), range: range,
                                                   frictionTorque: try f.number("friction_torque")))
                listed = .pin
            case let other:
                throw StateError("\(f.path): unknown joint kind \"\(other)\"")
            }
            let fr = try f.object("frames")
            let frames = JointFrames(localA: try fr.vector("local_a"), localB: try fr.vector("local_b"),
                                     axisA: try fr.vector("axis_a"), referenceAngle: try fr.number("reference_angle"))
            kind = .joint(joint, frames, listed: listed)
        case let other:
            throw StateError("\(f.path): unknown behavior type \"\(other)\"")
        }
    }
}

/// Typed access to a state document's object; every miss names the path.
package struct StateFields {
    package let members: [(String, JSONValue)]
    package let path: String

    package init(_ members: [(String, JSONValue)], path: String) {
        self.members = members
        self.path = path
    }

    package func raw(_ key: String) -> JSONValue? {
        for (name, value) in members where name == key { return value }
        return nil
    }

    package func has(_ key: String) -> Bool { raw(key) != nil }

    private func fail(_ key: String, _ what: String) -> StateError { StateError("\(path).\(key): \(what)") }

    package func number(_ key: String) throws(StateError) -> Double {
        guard case let .number(value)? = raw(key) else { throw fail(key, "missing or not a number") }
        return value
    }

    package func int(_ key: String) throws(StateError) -> Int {
        let value = try number(key)
        guard value == value.rounded(), value.magnitude <= 9_007_199_254_740_992 else { throw fail(key, "not an integer") }
        return Int(value)
    }

    package func string(_ key: String) throws(StateError) -> String {
        guard case let .string(value)? = raw(key) else { throw fail(key, "missing or not a string") }
        return value
    }

    package func bool(_ key: String) throws(StateError) -> Bool {
        guard case let .bool(value)? = raw(key) else { throw fail(key, "missing or not true/false") }
        return value
    }

    package func object(_ key: String) throws(StateError) -> StateFields {
        guard case let .object(value)? = raw(key) else { throw fail(key, "missing or not an object") }
        return StateFields(value, path: "\(path).\(key)")
    }

    package func objects(_ key: String) throws(StateError) -> [StateFields] {
        guard case let .array(elements)? = raw(key) else { throw fail(key, "missing or not an array") }
        var result: [StateFields] = []
        for (index, element) in elements.enumerated() {
            guard case let .object(value) = element else { throw fail("\(key)[\(index)]", "not an object") }
            result.append(StateFields(value, path: "\(path).\(key)[\(index)]"))
        }
        return result
    }

    package func vector(_ key: String) throws(StateError) -> Vec2 {
        let v = try object(key)
        return Vec2(try v.number("x"), try v.number("y"))
    }

    package func vectors(_ key: String) throws(StateError) -> [Vec2] {
        guard case let .array(elements)? = raw(key) else { throw fail(key, "missing or not an array") }
        var result: [Vec2] = []
        for element in elements {
            guard case let .array(pair) = element, pair.count == 2, case let .number(x) = pair[0], case let .number(y) = pair[1]
            else { throw fail(key, "not a list of [x, y] pairs") }
            result.append(Vec2(x, y))
        }
        return result
    }

    /// A `[min, max]` pair.
    package func vectors2(_ key: String) throws(StateError) -> (Double, Double) {
        guard case let .array(pair)? = raw(key), pair.count == 2, case let .number(a) = pair[0], case let .number(b) = pair[1]
        else { throw fail(key, "not a [min, max] pair") }
        return (a, b)
    }

    /// A field region as `writeRegion` writes it.
    package static func region(_ value: JSONValue?, path: String) throws(StateError) -> FieldRegion {
        guard case let .object(members)? = value, members.count == 1 else { throw StateError("\(path).region: not a region") }
        let (name, inner) = members[0]
        switch (name, inner) {
        case ("infinite", _): return .infinite
        case ("circle", .number(let r)): return .circle(radius: r)
        case ("rect", .array(let wh)) where wh.count == 2:
            guard case let .number(w) = wh[0], case let .number(h) = wh[1] else { break }
            return .rect(width: w, height: h)
        case ("inverse", _): return .inverse(try region(inner, path: path))
        case ("union", .array(let ab)) where ab.count == 2: return .union(try region(ab[0], path: path), try region(ab[1], path: path))
        case ("intersection", .array(let ab)) where ab.count == 2:
            return .intersection(try region(ab[0], path: path), try region(ab[1], path: path))
        default: break
        }
        throw StateError("\(path).region: not a region")
    }

    package func selection(_ key: String) throws(StateError) -> ItemSelection {
        switch raw(key) {
        case .string("all")?: return .all
        case let .array(elements)?:
            var ids: [ItemID] = []
            for element in elements {
                guard case let .number(value) = element, value == value.rounded() else { throw fail(key, "not a list of ids") }
                ids.append(Int(value))
            }
            return .only(ids)
        default: throw fail(key, "neither \"all\" nor a list of ids")
        }
    }
}
