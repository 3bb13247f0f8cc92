import Dynamics
import NetProtocol

/// `field` and `unfield` (docs/PROTOCOL.md): the animator's fields, addressed by their behavior ids.
extension SharedWorld {
    package func addField(kind: FieldKindName, _ parameters: FieldParameters) throws(ProtocolError) -> AckFields {
        var field = FieldBehavior(kind: kind.fieldKind, position: Vec2(parameters.x ?? 0, parameters.y ?? 0))
        try apply(parameters, to: &field)
        do {
            // Noise is deterministic per field: it is seeded with the id the field is about to get.
            field.seed = UInt64(animator.nextBehaviorIDForSeeding)
            let id = try animator.add(field)
            structureChanged = true
            return [("field", .number(Double(id)))]
        } catch {
            throw ProtocolError(.badValue, "field rejected: \(error.protocolWords)")
        }
    }

    package func updateField(_ id: Int, _ parameters: FieldParameters) throws(ProtocolError) -> AckFields {
        guard var field = animator.field(id) else { throw ProtocolError(.badValue, "field \"field\": no field with id \(id)") }
        try apply(parameters, to: &field)
        do { try animator.update(id, field) } catch {
            throw ProtocolError(.badValue, "field rejected: \(error.protocolWords)")
        }
        structureChanged = true
        return [("field", .number(Double(id)))]
    }

    package func removeField(_ id: Int) throws(ProtocolError) -> AckFields {
        guard animator.removeField(id) else { throw ProtocolError(.badValue, "field \"field\": no field with id \(id)") }
        structureChanged = true
        return [("field", .number(Double(id)))]
    }

    private func apply(_ p: FieldParameters, to field: inout FieldBehavior) throws(ProtocolError) {
        if let x = p.x { field.position.x = x }
        if let y = p.y { field.position.y = y }
        if let v = p.strength { field.strength = v }
        if let v = p.falloff { field.falloff = v }
        if let v = p.minRadius { field.minimumRadius = v }
        if let region = p.region { field.region = region.fieldRegion }
        if let d = p.direction { field.direction = Vec2(d.dx, d.dy) }
        if let v = p.smoothness { field.smoothness = v }
        if let v = p.animationSpeed { field.animationSpeed = v }
        if let bodies = p.bodies {
            for body in bodies where !contains(body) {
                throw ProtocolError(.unknownBody, "no body with id \(body) (field \"bodies\")")
            }
            field.items = .only(bodies)
        }
    }

    package var fieldInfos: [FieldInfo] {
        animator.fieldIDs.compactMap { id in
            guard let f = animator.field(id) else { return nil }
            var bodies: [Int]?
            if case .only(let ids) = f.items { bodies = ids.filter(contains) }
            return FieldInfo(id: id, kind: FieldKindName(f.kind), x: f.position.x, y: f.position.y, strength: f.strength,
                             falloff: f.falloff, minRadius: f.minimumRadius, region: FieldRegionSpec(f.region),
                             direction: DirectionVector(f.direction.x, f.direction.y), smoothness: f.smoothness,
                             animationSpeed: f.animationSpeed, bodies: bodies)
        }
    }
}

extension FieldKindName {
    package var fieldKind: FieldKind {
        switch self {
        case .linearGravity: return .linearGravity
        case .radialGravity: return .radialGravity
        case .spring: return .spring
        case .drag: return .drag
        case .velocity: return .velocity
        case .vortex: return .vortex
        case .noise: return .noise
        case .turbulence: return .turbulence
        case .electric: return .electric
        case .magnetic: return .magnetic
        }
    }

    package init(_ kind: FieldKind) {
        switch kind {
        case .linearGravity: self = .linearGravity
        case .radialGravity: self = .radialGravity
        case .spring: self = .spring
        case .drag: self = .drag
        case .velocity: self = .velocity
        case .vortex: self = .vortex
        case .noise: self = .noise
        case .turbulence: self = .turbulence
        case .electric: self = .electric
        case .magnetic: self = .magnetic
        }
    }
}

extension FieldRegionSpec {
    package var fieldRegion: FieldRegion {
        let base: FieldRegion
        switch shape {
        case .infinite: base = .infinite
        case .radius(let r): base = .circle(radius: r)
        case .rect(let w, let h): base = .rect(width: w, height: h)
        }
        return inverse ? .inverse(base) : base
    }

    /// The wire form of an engine region; unions and intersections (never created over the wire) read as
    /// infinite.
    package init(_ region: FieldRegion) {
        switch region {
        case .circle(let r): self.init(.radius(r))
        case .rect(let w, let h): self.init(.rect(width: w, height: h))
        case .inverse(let inner): self.init(FieldRegionSpec(inner).shape, inverse: true)
        default: self.init(Shape.infinite)
        }
    }
}
