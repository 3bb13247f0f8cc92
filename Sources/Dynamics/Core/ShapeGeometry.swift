/// The collision geometry of one item in its own frame: a circle, or a convex polygon whose vertices are
/// wound so that `cross(edge_i, edge_i+1) > 0` and whose outward normals are `(e.y, -e.x) / |e|`.
struct ShapeGeometry: Sendable {
    var isCircle: Bool
    var radius: Double
    var vertices: [Vec2]
    var normals: [Vec2]
    /// Area, centroid (relative to the item's center) and inertia about the centroid for a mass of 1.
    var mass: MassProperties
    var unitInertia: Double { mass.unitInertia }
    var centroid: Vec2 { mass.centroid }
    /// Distance from the center to the farthest point of the shape.
    var boundingRadius: Double
    /// Radius of a disc around the center that is inside the shape (0 when the center is outside).
    var innerRadius: Double

    /// Vertices used to approximate a non-circular ellipse.
    static let ellipseSegments = 16
    /// Upper bound on polygon vertices, so that collision cost stays bounded.
    static let maxPolygonVertices = 64

    /// Builds and validates the geometry of an item.
    static func make(_ shape: ItemShape, width: Double, height: Double) throws(DynamicsError) -> ShapeGeometry {
        switch shape {
        case .rect:
            let hw = width / 2, hh = height / 2
            let v = [Vec2(-hw, -hh), Vec2(hw, -hh), Vec2(hw, hh), Vec2(-hw, hh)]
            return polygon(v, mass: .rectangle(width: width, height: height))
        case .ellipse:
            if width == height {
                let r = width / 2
                return ShapeGeometry(isCircle: true, radius: r, vertices: [], normals: [], mass: .circle(radius: r),
                                     boundingRadius: r, innerRadius: r)
            }
            let a = width / 2, b = height / 2
            var v: [Vec2] = []
            for i in 0..<ellipseSegments {
                let t = 2 * Double.pi * Double(i) / Double(ellipseSegments)
                v.append(Vec2(a * cosine(t), b * sine(t)))
            }
            return polygon(v, mass: .polygon(v))
        case .polygon(let points):
            return try validatedPolygon(points)
        }
    }

    private static func validatedPolygon(_ input: [Vec2]) throws(DynamicsError) -> ShapeGeometry {
        guard input.count >= 3, input.count <= maxPolygonVertices else {
            throw .invalidValue("polygon needs 3...\(maxPolygonVertices) points")
        }
        for p in input { try checkCoordinate(p, "polygon point") }
        var pts = input
        var area2 = 0.0
        for i in 0..<pts.count { area2 += pts[i].cross(pts[(i + 1) % pts.count]) }
        if area2 < 0 { pts.reverse() }
        let scale = pts.reduce(0.0) { max($0, abs($1.x), abs($1.y)) }
        guard abs(area2) > 1e-9 * scale * scale, scale > 0 else { throw .invalidValue("polygon is degenerate") }
        let n = pts.count
        for i in 0..<n {
            let e1 = pts[(i + 1) % n] - pts[i]
            let e2 = pts[(i + 2) % n] - pts[(i + 1) % n]
            guard e1.length > 1e-9 * scale else { throw .invalidValue("polygon has repeated points") }
            guard e1.cross(e2) > 1e-12 * scale * scale else { throw .invalidValue("polygon is not strictly convex") }
        }
        return polygon(pts, mass: .polygon(pts))
    }

    private static func polygon(_ v: [Vec2], mass: MassProperties) -> ShapeGeometry {
        var normals: [Vec2] = []
        normals.reserveCapacity(v.count)
        var inner = Double.infinity
        for i in 0..<v.count {
            let e = v[(i + 1) % v.count] - v[i]
            let n = Vec2(e.y, -e.x).normalized
            normals.append(n)
            // Signed distance from the origin to the edge's line; negative means the origin is outside.
            inner = min(inner, -n.dot(Vec2.zero - v[i]))
        }
        let bound = v.reduce(0.0) { max($0, $1.length) }
        return ShapeGeometry(isCircle: false, radius: 0, vertices: v, normals: normals, mass: mass,
                             boundingRadius: bound, innerRadius: max(0, inner))
    }

    /// Whether a point given in the item's frame lies inside the shape.
    func contains(local p: Vec2) -> Bool {
        if isCircle { return p.lengthSquared <= radius * radius }
        for i in 0..<vertices.count where normals[i].dot(p - vertices[i]) > 0 { return false }
        return true
    }
}
