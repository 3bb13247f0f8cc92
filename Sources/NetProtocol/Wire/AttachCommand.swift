/// The kind of an attachment as named on the wire (docs/PROTOCOL.md, `attach`; docs/UIKIT.md, Attachments).
public enum AttachmentKindName: String, Sendable, CaseIterable {
    /// A rod or spring between the two points (UIAttachmentBehavior's default).
    case distance
    /// A rope: the points may come closer but never farther apart than `length`.
    case limit
    /// A weld: the relative pose of the two items stays constant.
    case fixed
    /// A prismatic joint: the item moves only along `axis`, within `range`.
    case sliding
    /// A revolute joint at one shared point, with an angle `range` and a `friction_torque`.
    case pin
}

/// A direction or velocity `{"dx":..,"dy":..}` in world axes (x right, y down).
public struct DirectionVector: Equatable, Sendable {
    public var dx: Double
    public var dy: Double

    public init(_ dx: Double, _ dy: Double) {
        self.dx = dx
        self.dy = dy
    }
}

/// A closed interval `[min, max]` with `min <= max` (points along a sliding axis, or radians for a pin).
public struct ValueRange: Equatable, Sendable {
    public var min: Double
    public var max: Double

    public init(_ min: Double, _ max: Double) {
        self.min = min
        self.max = max
    }
}

/// What the attached item is tied to: a world point, or a point of another item (`offset` in that item's
/// frame, nil = its center).
public enum AttachTarget: Equatable, Sendable {
    case anchor(Point)
    case body(Int, offset: Point?)
}

/// An `attach` command, validated: the fields that apply to `kind` are range-checked; `limit` always has a
/// `length`, `sliding` always an `axis` of non-zero length, and a sliding `range` contains 0.
public struct AttachSpec: Equatable, Sendable {
    public var body: Int
    /// The attached point in `body`'s frame; nil = its center.
    public var offset: Point?
    public var target: AttachTarget
    public var kind: AttachmentKindName
    /// distance: the rod's length (nil = the distance at creation); limit: the maximum distance.
    public var length: Double?
    /// distance: spring frequency in Hz (0 = rigid).
    public var frequency: Double?
    /// distance: damping ratio 0...1.
    public var damping: Double?
    /// sliding: the axis the item may move along (world frame at creation).
    public var axis: DirectionVector?
    /// sliding: translation limits in points; pin: angle limits in radians. nil = unlimited.
    public var range: ValueRange?
    /// pin: the shared point in world coordinates (nil = the midpoint of the two items, or the anchor).
    public var point: Point?
    /// pin: the largest torque the joint's friction opposes a turn with (unit in docs/UIKIT.md, Attachments).
    public var frictionTorque: Double?

    public init(body: Int, offset: Point? = nil, target: AttachTarget, kind: AttachmentKindName = .distance,
                length: Double? = nil, frequency: Double? = nil, damping: Double? = nil, axis: DirectionVector? = nil,
                range: ValueRange? = nil, point: Point? = nil, frictionTorque: Double? = nil) {
        self.body = body
        self.offset = offset
        self.target = target
        self.kind = kind
        self.length = length
        self.frequency = frequency
        self.damping = damping
        self.axis = axis
        self.range = range
        self.point = point
        self.frictionTorque = frictionTorque
    }
}
