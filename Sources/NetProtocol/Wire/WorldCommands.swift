/// Insets of the reference bounds in points (positive values shrink the boundary rectangle).
public struct BoundsInsets: Equatable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = BoundsInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// Reads `velocity`, `boundary`, `bounds`, `group`, `ungroup` and `step` (docs/PROTOCOL.md).
extension ClientCommandDecoder {
    /// Largest |inset| of the reference bounds, in points.
    static let maxInset = 100_000.0
    /// Points of one named boundary.
    static let boundaryPoints = 2...256
    /// Ticks one `step` may take.
    static let stepTicks = 1...600

    func velocity() throws(ProtocolError) -> ClientCommand {
        let body = try fields.body()
        let vx = try fields.optionalNumber("vx"), vy = try fields.optionalNumber("vy"), av = try fields.optionalNumber("av")
        let add = try fields.optionalBool("add") ?? true
        if vx == nil && vy == nil && av == nil { throw ProtocolError(.badMessage, "velocity needs vx, vy or av") }
        return .velocity(body: body, vx: vx, vy: vy, av: av, add: add)
    }

    func boundary() throws(ProtocolError) -> ClientCommand {
        let name = try fields.string("boundary")
        guard !name.isEmpty else { throw fields.invalid("boundary", "must not be empty") }
        guard name != "bounds" else { throw fields.invalid("boundary", "\"bounds\" names the reference bounds (use the bounds command)") }
        if try fields.optionalBool("remove") == true { return .removeBoundary(name: name) }
        let points = try boundaryPoints("points")
        return .boundary(name: name, points: points, closed: try fields.optionalBool("closed") ?? false)
    }

    /// A polyline: 2...256 `[x, y]` pairs, no two consecutive points equal.
    private func boundaryPoints(_ key: String) throws(ProtocolError) -> [Point] {
        guard let raw = fields.value(key) else { throw fields.missing(key) }
        guard case let .array(elements) = raw else { throw fields.mistyped(key, "an array of [x, y] pairs", raw) }
        var points: [Point] = []
        for element in elements {
            guard case let .array(pair) = element, pair.count == 2,
                  case let .number(x) = pair[0], case let .number(y) = pair[1] else {
                throw ProtocolError(.badMessage, "field \(quoted(key)) must be an array of [x, y] number pairs")
            }
            points.append(Point(x, y))
        }
        let range = ClientCommandDecoder.boundaryPoints
        guard range.contains(points.count) else {
            throw fields.invalid(key, "must have \(range.lowerBound) to \(range.upperBound) points")
        }
        for point in points where !(point.x.isFinite && point.y.isFinite && abs(point.x) <= 1e9 && abs(point.y) <= 1e9) {
            throw fields.invalid(key, "must hold finite coordinates within ±1e9")
        }
        for k in 1..<points.count where points[k] == points[k - 1] {
            throw fields.invalid(key, "must not repeat a point (a segment of length 0)")
        }
        return points
    }

    func bounds() throws(ProtocolError) -> ClientCommand {
        let enabled = try fields.optionalBool("enabled")
        var insets: BoundsInsets?
        if let raw = fields.value("insets") {
            guard case let .object(members) = raw else { throw fields.mistyped("insets", "an object {top,left,bottom,right}", raw) }
            let inner = FieldReader(members: members)
            do throws(ProtocolError) {
                func side(_ key: String) throws(ProtocolError) -> Double {
                    let value = try inner.optionalNumber(key) ?? 0
                    guard abs(value) <= ClientCommandDecoder.maxInset else { throw inner.invalid(key, "must be within ±100000") }
                    return value
                }
                insets = BoundsInsets(top: try side("top"), left: try side("left"), bottom: try side("bottom"),
                                      right: try side("right"))
            } catch {
                throw ProtocolError(error.code, "in field \"insets\": \(error.message)")
            }
        }
        if enabled == nil && insets == nil { throw ProtocolError(.badMessage, "bounds needs \"enabled\" or \"insets\"") }
        return .bounds(enabled: enabled, insets: insets)
    }

    func group() throws(ProtocolError) -> ClientCommand {
        guard let bodies = try fields.optionalBodyList("bodies") else { throw fields.missing("bodies") }
        guard (2...64).contains(bodies.count) else { throw fields.invalid("bodies", "must list 2 to 64 bodies") }
        for (k, id) in bodies.enumerated() where bodies[..<k].contains(id) {
            throw fields.invalid("bodies", "lists body \(id) twice")
        }
        return .group(bodies: bodies)
    }

    func step() throws(ProtocolError) -> ClientCommand {
        let range = ClientCommandDecoder.stepTicks
        guard let ticks = try fields.optionalNumber("ticks") else { throw fields.missing("ticks") }
        guard ticks == ticks.rounded(), ticks >= Double(range.lowerBound), ticks <= Double(range.upperBound) else {
            throw fields.invalid("ticks", "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return .step(ticks: Int(ticks))
    }
}

extension ClientCommandEncoder {
    static func writeInsets(_ i: BoundsInsets, into w: inout JSONWriter) {
        w.beginObject()
        w.key("top"); w.number(i.top)
        w.key("left"); w.number(i.left)
        w.key("bottom"); w.number(i.bottom)
        w.key("right"); w.number(i.right)
        w.endObject()
    }
}
