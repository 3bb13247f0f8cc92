/// Reads `field` (create with `kind`, or update with `field`) and `unfield` (docs/PROTOCOL.md).
extension ClientCommandDecoder {
    func field() throws(ProtocolError) -> ClientCommand {
        let hasKind = fields.has("kind"), hasID = fields.has("field")
        if hasKind && hasID { throw ProtocolError(.badMessage, "give either \"kind\" (create) or \"field\" (update), not both") }
        let parameters = try fieldParameters()
        if hasID {
            let id = try fields.objectID("field")
            guard parameters != FieldParameters() else {
                throw ProtocolError(.badMessage, "a field update needs at least one parameter")
            }
            return .fieldUpdate(field: id, parameters)
        }
        guard hasKind else { throw ProtocolError(.badMessage, "field needs \"kind\" (create) or \"field\" (update)") }
        let kind = try fields.name("kind", as: FieldKindName.self)
        if parameters.x == nil { throw fields.missing("x") }
        if parameters.y == nil { throw fields.missing("y") }
        return .field(kind: kind, parameters)
    }

    private func fieldParameters() throws(ProtocolError) -> FieldParameters {
        var p = FieldParameters()
        p.x = try fields.optionalNumber("x")
        p.y = try fields.optionalNumber("y")
        p.strength = try fields.optionalNumber("strength")
        p.falloff = try fields.optionalNonNegative("falloff")
        p.minRadius = try fields.optionalNonNegative("min_radius")
        p.region = try region()
        p.direction = try fields.optionalDirection("direction")
        p.smoothness = try fields.optionalUnit("smoothness")
        p.animationSpeed = try fields.optionalNonNegative("animation_speed")
        p.bodies = try fields.optionalBodyList("bodies")
        return p
    }

    /// `{"radius":r}`, `{"width":w,"height":h}` or `{}` (infinite), each with an optional `"inverse":true`.
    private func region() throws(ProtocolError) -> FieldRegionSpec? {
        guard let raw = fields.value("region") else { return nil }
        guard case let .object(members) = raw else { throw fields.mistyped("region", "an object", raw) }
        let inner = FieldReader(members: members)
        do throws(ProtocolError) {
            let inverse = try inner.optionalBool("inverse") ?? false
            let hasRadius = inner.has("radius"), hasRect = inner.has("width") || inner.has("height")
            if hasRadius && hasRect { throw ProtocolError(.badMessage, "give either radius or width+height, not both") }
            if hasRadius {
                let r = try inner.number("radius")
                guard r > 0 else { throw inner.invalid("radius", "must be > 0") }
                return FieldRegionSpec(.radius(r), inverse: inverse)
            }
            if hasRect {
                return FieldRegionSpec(.rect(width: try inner.size("width"), height: try inner.size("height")), inverse: inverse)
            }
            return FieldRegionSpec(.infinite, inverse: inverse)
        } catch {
            throw ProtocolError(error.code, "in field \"region\": \(error.message)")
        }
    }

    func unfield() throws(ProtocolError) -> ClientCommand {
        .unfield(field: try fields.objectID("field"))
    }
}

extension FieldReader {
    /// An array of positive integer body ids (at most 5000).
    func optionalBodyList(_ key: String) throws(ProtocolError) -> [Int]? {
        guard let raw = value(key) else { return nil }
        guard case let .array(elements) = raw else { throw mistyped(key, "an array of body ids", raw) }
        guard elements.count <= 5000 else { throw invalid(key, "must list at most 5000 bodies") }
        var ids: [Int] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard case let .number(number) = element else {
                throw ProtocolError(.badMessage, "field \(quoted(key)) must be an array of body ids, not of \(element.typeDescription)")
            }
            guard number >= 1, number <= FieldReader.maxBodyID, number == number.rounded() else {
                throw invalid(key, "must hold positive integer body ids")
            }
            ids.append(Int(number))
        }
        return ids
    }
}

extension ClientCommandEncoder {
    static func writeFieldParameters(_ p: FieldParameters, into w: inout JSONWriter) {
        if let x = p.x { w.key("x"); w.number(x) }
        if let y = p.y { w.key("y"); w.number(y) }
        if let v = p.strength { w.key("strength"); w.number(v) }
        if let v = p.falloff { w.key("falloff"); w.number(v) }
        if let v = p.minRadius { w.key("min_radius"); w.number(v) }
        if let region = p.region { w.key("region"); writeRegion(region, into: &w) }
        if let v = p.direction { w.key("direction"); writeDirection(v, into: &w) }
        if let v = p.smoothness { w.key("smoothness"); w.number(v) }
        if let v = p.animationSpeed { w.key("animation_speed"); w.number(v) }
        if let bodies = p.bodies { w.key("bodies"); writeIDs(bodies, into: &w) }
    }

    static func writeRegion(_ region: FieldRegionSpec, into w: inout JSONWriter) {
        w.beginObject()
        switch region.shape {
        case .infinite: break
        case let .radius(r): w.key("radius"); w.number(r)
        case let .rect(width, height): w.key("width"); w.number(width); w.key("height"); w.number(height)
        }
        if region.inverse { w.key("inverse"); w.bool(true) }
        w.endObject()
    }

    /// `[1,2,3]`
    static func writeIDs(_ ids: [Int], into w: inout JSONWriter) {
        w.beginArray()
        for id in ids { w.int(id) }
        w.endArray()
    }
}
