/// Writes a `ClientCommand`'s fields in the wire form `ClientCommandDecoder` reads (after `type` and `id`).
enum ClientCommandEncoder {
    static func writeFields(of command: ClientCommand, into w: inout JSONWriter) {
        switch command {
        case let .hello(name, token, protocolVersion, subscribe, room, roomToken):
            if let name { w.key("name"); w.string(name) }
            if let token { w.key("token"); w.string(token) }
            if let protocolVersion { w.key("protocol"); w.int(protocolVersion) }
            if let subscribe {
                w.key("subscribe")
                w.beginObject()
                writeSubscription(subscribe, into: &w)
                w.endObject()
            }
            if let room { w.key("room"); w.string(room) }
            if let roomToken { w.key("room_token"); w.string(roomToken) }
        case let .ping(t):
            if let t { w.key("t"); w.value(t) }
        case let .tap(x, y, body, mode):
            w.key("x"); w.number(x)
            w.key("y"); w.number(y)
            if let body { w.key("body"); w.int(body) }
            w.key("mode"); w.string(mode.rawValue)
        case let .push(body, direction, mode, active, offset):
            w.key("body"); w.int(body)
            switch direction {
            case let .angle(angle, magnitude)?:
                w.key("angle"); w.number(angle)
                w.key("magnitude"); w.number(magnitude)
            case let .vector(dx, dy)?:
                w.key("dx"); w.number(dx)
                w.key("dy"); w.number(dy)
            case nil: break
            }
            if let mode { w.key("mode"); w.string(mode.rawValue) }
            if let active { w.key("active"); w.bool(active) }
            if let offset { w.key("offset"); writePoint(offset, into: &w) }
        case let .drag(phase, x, y, body):
            w.key("phase"); w.string(phase.rawValue)
            if let x { w.key("x"); w.number(x) }
            if let y { w.key("y"); w.number(y) }
            if let body { w.key("body"); w.int(body) }
        case let .snap(body, x, y, damping):
            w.key("body"); w.int(body)
            w.key("x"); w.number(x)
            w.key("y"); w.number(y)
            if let damping { w.key("damping"); w.number(damping) }
        case let .unsnap(body):
            w.key("body"); w.int(body)
            w.key("active"); w.bool(false)
        case let .set(body, patch):
            w.key("body"); w.int(body)
            writePatch(patch, into: &w)
        case let .gravity(change):
            writeGravity(change, into: &w)
        case let .collision(mode):
            w.key("mode"); w.string(mode.rawValue)
        case let .spawn(shape, width, height, x, y, angle, vx, vy, patch):
            w.key("shape"); w.string(shape.wireName)
            if case let .polygon(points) = shape { w.key("points"); writePairs(points, into: &w) }
            w.key("width"); w.number(width)
            w.key("height"); w.number(height)
            w.key("x"); w.number(x)
            w.key("y"); w.number(y)
            if let angle { w.key("angle"); w.number(angle) }
            if let vx { w.key("vx"); w.number(vx) }
            if let vy { w.key("vy"); w.number(vy) }
            writePatch(patch, into: &w)
        case let .remove(body):
            w.key("body"); w.int(body)
        case let .scene(name):
            w.key("name"); w.string(name)
        case let .subscribe(change):
            writeSubscription(change, into: &w)
        case let .attach(spec):
            writeAttach(spec, into: &w)
        case let .anchor(attachment, x, y):
            w.key("attachment"); w.int(attachment)
            w.key("x"); w.number(x)
            w.key("y"); w.number(y)
        case let .detach(attachment):
            w.key("attachment"); w.int(attachment)
        case let .field(kind, parameters):
            w.key("kind"); w.string(kind.rawValue)
            writeFieldParameters(parameters, into: &w)
        case let .fieldUpdate(field, parameters):
            w.key("field"); w.int(field)
            writeFieldParameters(parameters, into: &w)
        case let .unfield(field):
            w.key("field"); w.int(field)
        case let .velocity(body, vx, vy, av, add):
            w.key("body"); w.int(body)
            if let vx { w.key("vx"); w.number(vx) }
            if let vy { w.key("vy"); w.number(vy) }
            if let av { w.key("av"); w.number(av) }
            w.key("add"); w.bool(add)
        case let .boundary(name, points, closed):
            w.key("boundary"); w.string(name)
            w.key("points"); writePairs(points, into: &w)
            w.key("closed"); w.bool(closed)
        case let .removeBoundary(name):
            w.key("boundary"); w.string(name)
            w.key("remove"); w.bool(true)
        case let .bounds(enabled, insets):
            if let enabled { w.key("enabled"); w.bool(enabled) }
            if let insets { w.key("insets"); writeInsets(insets, into: &w) }
        case let .group(bodies):
            w.key("bodies"); writeIDs(bodies, into: &w)
        case let .ungroup(group):
            w.key("group"); w.int(group)
        case .pause, .resume:
            break
        case let .step(ticks):
            w.key("ticks"); w.int(ticks)
        case let .join(room, scene, roomToken):
            w.key("room"); w.string(room)
            if let scene { w.key("scene"); w.string(scene) }
            if let roomToken { w.key("room_token"); w.string(roomToken) }
        case .rooms, .hash:
            break
        case let .checkpoint(name), let .restore(name):
            w.key("name"); w.string(name)
        }
    }

    private static func writeGravity(_ change: GravityChange, into w: inout JSONWriter) {
        switch change {
        case let .vector(dx, dy, magnitude):
            w.key("dx"); w.number(dx)
            w.key("dy"); w.number(dy)
            if let magnitude { w.key("magnitude"); w.number(magnitude) }
        case let .angle(angle, magnitude):
            w.key("angle"); w.number(angle)
            if let magnitude { w.key("magnitude"); w.number(magnitude) }
        case let .magnitude(magnitude):
            w.key("magnitude"); w.number(magnitude)
        }
    }

    /// Writes the set properties with their snake_case wire names.
    static func writePatch(_ patch: PropertyPatch, into w: inout JSONWriter) {
        if let value = patch.elasticity { w.key("elasticity"); w.number(value) }
        if let value = patch.friction { w.key("friction"); w.number(value) }
        if let value = patch.density { w.key("density"); w.number(value) }
        if let value = patch.resistance { w.key("resistance"); w.number(value) }
        if let value = patch.angularResistance { w.key("angular_resistance"); w.number(value) }
        if let value = patch.allowsRotation { w.key("allows_rotation"); w.bool(value) }
        if let value = patch.anchored { w.key("anchored"); w.bool(value) }
        if let value = patch.color { w.key("color"); w.string(value) }
        if let value = patch.charge { w.key("charge"); w.number(value) }
    }

    /// `{"x":..,"y":..}`
    static func writePoint(_ point: Point, into w: inout JSONWriter) {
        w.beginObject()
        w.key("x"); w.number(point.x)
        w.key("y"); w.number(point.y)
        w.endObject()
    }

    /// `[[x,y],...]`
    static func writePairs(_ points: [Point], into w: inout JSONWriter) {
        w.beginArray()
        for point in points {
            w.beginArray()
            w.number(point.x)
            w.number(point.y)
            w.endArray()
        }
        w.endArray()
    }
}
