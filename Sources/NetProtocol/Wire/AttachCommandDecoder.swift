/// Reads `attach`, `anchor` and `detach` (docs/PROTOCOL.md). A field that does not apply to the
/// attachment's kind is ignored, like any unknown field.
extension ClientCommandDecoder {
    func attach() throws(ProtocolError) -> ClientCommand {
        let body = try fields.body()
        let offset = try fields.optionalPoint("offset")
        let hasAnchor = fields.has("anchor"), hasOther = fields.has("to_body")
        if hasAnchor && hasOther { throw ProtocolError(.badMessage, "give either \"anchor\" or \"to_body\", not both") }
        let target: AttachTarget
        if let anchor = try fields.optionalPoint("anchor") {
            target = .anchor(anchor)
        } else if let other = try fields.optionalBody("to_body") {
            guard other != body else { throw fields.invalid("to_body", "must be another body than \"body\"") }
            target = .body(other, offset: try fields.optionalPoint("to_offset"))
        } else {
            throw ProtocolError(.badMessage, "attach needs \"anchor\" or \"to_body\"")
        }
        let kind = try fields.optionalName("kind", as: AttachmentKindName.self) ?? .distance
        var spec = AttachSpec(body: body, offset: offset, target: target, kind: kind)
        switch kind {
        case .distance:
            spec.length = try fields.optionalNonNegative("length")
            spec.frequency = try fields.optionalNonNegative("frequency")
            spec.damping = try fields.optionalUnit("damping")
        case .limit:
            guard let length = try fields.optionalNonNegative("length") else { throw fields.missing("length") }
            spec.length = length
        case .fixed:
            break
        case .sliding:
            guard let axis = try fields.optionalDirection("axis") else { throw fields.missing("axis") }
            guard axis.dx != 0 || axis.dy != 0 else { throw fields.invalid("axis", "must not be the zero vector") }
            spec.axis = axis
            spec.range = try fields.optionalRange("range")
            if let range = spec.range, range.min > 0 || range.max < 0 {
                throw fields.invalid("range", "must contain 0 (the item's position at creation)")
            }
        case .pin:
            spec.point = try fields.optionalPoint("point")
            spec.range = try fields.optionalRange("range")
            spec.frictionTorque = try fields.optionalNonNegative("friction_torque")
        }
        return .attach(spec)
    }

    func anchor() throws(ProtocolError) -> ClientCommand {
        .anchor(attachment: try fields.objectID("attachment"), x: try fields.number("x"), y: try fields.number("y"))
    }
}

extension FieldReader {
    /// The id of an attachment, field or group: a positive integer.
    func objectID(_ key: String) throws(ProtocolError) -> Int {
        guard let number = try optionalNumber(key) else { throw missing(key) }
        guard number >= 1, number <= FieldReader.maxBodyID, number == number.rounded() else {
            throw invalid(key, "must be a positive integer id")
        }
        return Int(number)
    }

    func optionalNonNegative(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = try optionalNumber(key) else { return nil }
        guard value >= 0 else { throw invalid(key, "must be >= 0") }
        return value
    }

    /// An object `{"dx":..,"dy":..}`.
    func optionalDirection(_ key: String) throws(ProtocolError) -> DirectionVector? {
        guard let raw = value(key) else { return nil }
        guard case let .object(members) = raw else { throw mistyped(key, "an object {\"dx\",\"dy\"}", raw) }
        let inner = FieldReader(members: members)
        do throws(ProtocolError) {
            return DirectionVector(try inner.number("dx"), try inner.number("dy"))
        } catch {
            throw ProtocolError(error.code, "in field \(quoted(key)): \(error.message)")
        }
    }

    /// An array `[min, max]` of two finite numbers with min <= max.
    func optionalRange(_ key: String) throws(ProtocolError) -> ValueRange? {
        guard let raw = value(key) else { return nil }
        guard case let .array(elements) = raw, elements.count == 2,
              case let .number(low) = elements[0], case let .number(high) = elements[1] else {
            throw ProtocolError(.badMessage, "field \(quoted(key)) must be an array [min, max] of two numbers")
        }
        guard low.isFinite, high.isFinite else { throw invalid(key, "must hold finite numbers") }
        guard low <= high else { throw invalid(key, "must have min <= max") }
        return ValueRange(low, high)
    }
}

extension ClientCommandEncoder {
    static func writeAttach(_ spec: AttachSpec, into w: inout JSONWriter) {
        w.key("body"); w.int(spec.body)
        if let offset = spec.offset { w.key("offset"); writePoint(offset, into: &w) }
        switch spec.target {
        case let .anchor(point):
            w.key("anchor"); writePoint(point, into: &w)
        case let .body(other, offset):
            w.key("to_body"); w.int(other)
            if let offset { w.key("to_offset"); writePoint(offset, into: &w) }
        }
        w.key("kind"); w.string(spec.kind.rawValue)
        if let length = spec.length { w.key("length"); w.number(length) }
        if let frequency = spec.frequency { w.key("frequency"); w.number(frequency) }
        if let damping = spec.damping { w.key("damping"); w.number(damping) }
        if let axis = spec.axis { w.key("axis"); writeDirection(axis, into: &w) }
        if let range = spec.range { w.key("range"); writeRange(range, into: &w) }
        if let point = spec.point { w.key("point"); writePoint(point, into: &w) }
        if let torque = spec.frictionTorque { w.key("friction_torque"); w.number(torque) }
    }

    /// `{"dx":..,"dy":..}`
    static func writeDirection(_ v: DirectionVector, into w: inout JSONWriter) {
        w.beginObject()
        w.key("dx"); w.number(v.dx)
        w.key("dy"); w.number(v.dy)
        w.endObject()
    }

    /// `[min,max]`
    static func writeRange(_ r: ValueRange, into w: inout JSONWriter) {
        w.beginArray()
        w.number(r.min)
        w.number(r.max)
        w.endArray()
    }
}
