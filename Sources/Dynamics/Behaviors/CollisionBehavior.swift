/// Which contacts a collision behavior enables.
public enum CollisionMode: String, Sendable, CaseIterable {
    /// Items collide with each other only (they pass through boundaries).
    case items
    /// Items collide with boundaries only (they pass through each other).
    case boundaries
    /// Items collide with each other and with boundaries.
    case everything

    var collidesItems: Bool { self != .boundaries }
    var collidesBoundaries: Bool { self != .items }
}

/// Insets of the reference bounds (positive values shrink the boundary rectangle).
public struct EdgeInsets: Equatable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// A named boundary: a polyline through `points`, closed back to the first point when `closed`.
public struct Boundary: Equatable, Sendable {
    public var id: String
    public var points: [Vec2]
    public var closed: Bool

    public init(id: String, points: [Vec2], closed: Bool) {
        self.id = id
        self.points = points
        self.closed = closed
    }
}

/// UICollisionBehavior: makes its items collide according to `mode`, with the reference bounds (optionally
/// inset) and with named boundaries. The reference bounds are reported in contact events as "bounds".
public struct CollisionBehavior: Equatable, Sendable {
    /// The boundary id that contact events use for the reference bounds.
    public static let referenceBoundsID = "bounds"

    public var items: ItemSelection
    public var mode: CollisionMode
    public var translatesReferenceBoundsIntoBoundary: Bool
    public var boundaryInsets: EdgeInsets
    public private(set) var boundaries: [Boundary] = []

    public init(items: ItemSelection = .all, mode: CollisionMode = .everything,
                translatesReferenceBoundsIntoBoundary: Bool = true, boundaryInsets: EdgeInsets = .zero) {
        self.items = items
        self.mode = mode
        self.translatesReferenceBoundsIntoBoundary = translatesReferenceBoundsIntoBoundary
        self.boundaryInsets = boundaryInsets
    }

    /// Adds (or replaces, when `id` exists) a straight segment boundary.
    public mutating func addBoundary(id: String, from: Vec2, to: Vec2) {
        addBoundary(id: id, points: [from, to], closed: false)
    }

    /// Adds (or replaces, when `id` exists) a polyline boundary, closed when `closed`.
    public mutating func addBoundary(id: String, points: [Vec2], closed: Bool) {
        let b = Boundary(id: id, points: points, closed: closed)
        if let i = boundaries.firstIndex(where: { $0.id == id }) {
            boundaries[i] = b
        } else {
            boundaries.append(b)
        }
    }

    /// Removes the boundary named `id`; false when there is none.
    @discardableResult public mutating func removeBoundary(id: String) -> Bool {
        guard let i = boundaries.firstIndex(where: { $0.id == id }) else { return false }
        boundaries.remove(at: i)
        return true
    }

    /// Removes every named boundary.
    public mutating func removeAllBoundaries() { boundaries.removeAll() }

    func validate() throws(DynamicsError) {
        let i = boundaryInsets
        for v in [i.top, i.left, i.bottom, i.right] {
            guard v.isFinite, abs(v) <= maxCoordinate else { throw .invalidValue("boundary insets must be finite") }
        }
        for b in boundaries {
            guard b.points.count >= 2 else { throw .invalidValue("boundary \(b.id) needs at least 2 points") }
            for p in b.points { try checkCoordinate(p, "boundary point") }
            for k in 0..<(b.points.count - 1) where b.points[k] == b.points[k + 1] {
                throw .invalidValue("boundary \(b.id) has a zero-length segment")
            }
        }
    }
}
