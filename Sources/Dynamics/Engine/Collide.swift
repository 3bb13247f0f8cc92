/// PhysicsWorld-space view of one collision shape for the narrow phase. Polygons (including the two-vertex
/// polygons that represent boundary segments) point into the world's vertex pools.
struct ShapeView {
    var isCircle: Bool
    var radius: Double
    var center: Vec2
    var vertices: UnsafePointer<Vec2>
    var normals: UnsafePointer<Vec2>
    var count: Int
}

/// One contact point produced by the narrow phase: the world point halfway between the surfaces, the signed
/// separation along the manifold normal (negative = overlap) and a feature id for warm starting.
struct ManifoldPointResult {
    var point: Vec2 = .zero
    var separation: Double = 0
    var id: UInt32 = 0
}

/// Up to two contact points sharing a normal that points from shape A to shape B.
struct Manifold {
    var normal: Vec2 = .zero
    var count = 0
    var p0 = ManifoldPointResult()
    var p1 = ManifoldPointResult()

    mutating func add(_ point: Vec2, _ separation: Double, _ id: UInt32, _ maxSeparation: Double) {
        guard separation <= maxSeparation else { return }
        let r = ManifoldPointResult(point: point, separation: separation, id: id)
        if count == 0 { p0 = r } else { p1 = r }
        count += 1
    }
}

/// Contact points between two shapes that are closer than `margin` (speculative contacts included).
///
/// `apart` is the direction two shapes whose centres (nearly) coincide are pushed apart along
/// (`coincidentNormal`): no geometric direction exists there, and a fixed one (say, straight down) would stack
/// a pile of items created at one point into a single column under gravity, forever.
/// `nil` for a boundary segment (whose `center` is only its first point).
func collide(_ a: ShapeView, _ b: ShapeView, margin: Double, apart: Vec2? = nil) -> Manifold {
    if let n = apart, (b.center - a.center).lengthSquared < Tuning.coincidentDistance * Tuning.coincidentDistance {
        return collideCoincident(a, b, n, margin)
    }
    switch (a.isCircle, b.isCircle) {
    case (true, true): return collideCircles(a, b, margin)
    case (false, true): return collidePolygonCircle(a, b, margin)
    case (true, false):
        var m = collidePolygonCircle(b, a, margin)
        m.normal = -m.normal
        return m
    case (false, false): return collidePolygons(a, b, margin)
    }
}

/// Two shapes whose centres are closer than `Tuning.coincidentDistance`: one point at the middle, separated along
/// `n` by the overlap of the two shapes' extents along `n` (negative), so that the soft contact pushes them
/// apart along `n` until their centres are far enough apart for the geometric normal to take over.
private func collideCoincident(_ a: ShapeView, _ b: ShapeView, _ n: Vec2, _ margin: Double) -> Manifold {
    @inline(__always) func reach(_ s: ShapeView, _ u: Vec2) -> Double {
        if s.isCircle { return s.radius }
        var best = -Double.infinity
        for i in 0..<s.count { best = max(best, u.dot(s.vertices[i] - s.center)) }
        return best
    }
    var m = Manifold()
    let sep = n.dot(b.center - a.center) - reach(a, n) - reach(b, -n)
    m.normal = n
    m.add((a.center + b.center) * 0.5, sep, 0x3_0000, margin)
    return m
}

/// The direction two items with coincident centres are pushed apart along: derived from their two ids only
/// (so the same pair always gets the same one, and different pairs of a pile different ones), never closer
/// than 30° to the vertical, so gravity cannot hold a pile in a column. Points from `idA`'s item to `idB`'s.
func coincidentNormal(_ idA: Int, _ idB: Int) -> Vec2 {
    // Weyl sequences of the two ids: well spread fractions in [0, 1).
    let f = (Double(idA & 0xFFFF_FFFF) * 0.618_033_988_749_895 + Double(idB & 0xFFFF_FFFF) * 0.414_213_562_373_095)
    let u = f - f.rounded(.down)
    // Angles within 60° of the horizontal, to the right for u < 0.5 and to the left otherwise.
    let angle = (u < 0.5 ? u : u - 0.5) * 2 * (2 * Double.pi / 3) - Double.pi / 3
    let n = Vec2(cosine(angle), sine(angle))
    return u < 0.5 ? n : Vec2(-n.x, n.y)
}

private func collideCircles(_ a: ShapeView, _ b: ShapeView, _ margin: Double) -> Manifold {
    var m = Manifold()
    let d = b.center - a.center
    let dist = d.length
    let sep = dist - a.radius - b.radius
    guard sep <= margin else { return m }
    let n = d * (1 / dist)
    let ca = a.center + n * a.radius, cb = b.center - n * b.radius
    m.normal = n
    m.add((ca + cb) * 0.5, sep, 0, margin)
    return m
}

/// Polygon A against circle B; the normal points from A to B.
private func collidePolygonCircle(_ poly: ShapeView, _ circle: ShapeView, _ margin: Double) -> Manifold {
    var m = Manifold()
    let c = circle.center, r = circle.radius
    var best = 0
    var maxSep = -Double.infinity
    for i in 0..<poly.count {
        let s = poly.normals[i].dot(c - poly.vertices[i])
        if s > maxSep { maxSep = s; best = i }
    }
    guard maxSep - r <= margin else { return m }
    let v1 = poly.vertices[best], v2 = poly.vertices[best + 1 == poly.count ? 0 : best + 1]
    let u1 = (c - v1).dot(v2 - v1), u2 = (c - v2).dot(v1 - v2)
    let eps = 1e-9
    var normal: Vec2, onPoly: Vec2, sep: Double
    if u1 < 0 && maxSep > eps {
        normal = (c - v1).normalized
        sep = (c - v1).dot(normal) - r
        onPoly = v1
    } else if u2 < 0 && maxSep > eps {
        normal = (c - v2).normalized
        sep = (c - v2).dot(normal) - r
        onPoly = v2
    } else {
        normal = poly.normals[best]
        let s = (c - v1).dot(normal)
        sep = s - r
        onPoly = c - normal * s
    }
    if normal == .zero { normal = poly.normals[best] }
    m.normal = normal
    let onCircle = c - normal * r
    m.add((onPoly + onCircle) * 0.5, sep, 0, margin)
    return m
}

/// The edge of `p1` along whose normal `p2` lies farthest out, and that separation. An edge stops being
/// examined as soon as one vertex of `p2` is no farther out than the best edge so far (its separation only
/// decreases over the vertices, so it cannot win): the same result as the full scan, in a fraction of the work
/// for touching polygons, whose other edges have deeply negative separations.
@inline(__always)
private func maxSeparation(_ p1: ShapeView, _ p2: ShapeView) -> (edge: Int, separation: Double) {
    var bestEdge = 0
    var best = -Double.infinity
    for i in 0..<p1.count {
        let n = p1.normals[i], v = p1.vertices[i]
        var si = Double.infinity
        for j in 0..<p2.count {
            let s = n.dot(p2.vertices[j] - v)
            if s < si {
                si = s
                if si <= best { break }
            }
        }
        if si > best { best = si; bestEdge = i }
    }
    return (bestEdge, best)
}

/// Polygon–polygon with SAT for the reference face and clipping of the incident edge (two points), or a
/// single vertex–vertex point when the edges do not overlap along the reference face.
private func collidePolygons(_ a: ShapeView, _ b: ShapeView, _ margin: Double) -> Manifold {
    let (edgeA, sepA) = maxSeparation(a, b)
    guard sepA <= margin else { return Manifold() }
    let (edgeB, sepB) = maxSeparation(b, a)
    guard sepB <= margin else { return Manifold() }
    let flip = sepB > sepA + 0.05
    let p1 = flip ? b : a, p2 = flip ? a : b
    let i11 = flip ? edgeB : edgeA
    let i12 = i11 + 1 == p1.count ? 0 : i11 + 1
    let n = p1.normals[i11]
    var i21 = 0
    var minDot = Double.infinity
    for i in 0..<p2.count {
        let d = n.dot(p2.normals[i])
        if d < minDot { minDot = d; i21 = i }
    }
    let i22 = i21 + 1 == p2.count ? 0 : i21 + 1
    let v11 = p1.vertices[i11], v12 = p1.vertices[i12]
    let v21 = p2.vertices[i21], v22 = p2.vertices[i22]
    let t = crossSV(1, n)
    let upper1 = (v12 - v11).dot(t)
    let upper2 = (v21 - v11).dot(t), lower2 = (v22 - v11).dot(t)
    var m = Manifold()
    if upper2 < 0 || lower2 > upper1 {
        // Edges miss each other along the face: the closest features are two vertices.
        let (q1, q2, id) = upper2 < 0 ? (v11, v21, UInt32(i11 << 8 | i21)) : (v12, v22, UInt32(i12 << 8 | i22))
        let d = q2 - q1
        let dist = d.length
        var normal = dist > 1e-9 ? d * (1 / dist) : n
        if normal.dot(n) < 0 { normal = n }
        m.normal = flip ? -normal : normal
        m.add((q1 + q2) * 0.5, d.dot(normal), id | 0x1_0000, margin)
        return m
    }
    let span = upper2 - lower2
    var vLower = v22, vUpper = v21
    if lower2 < 0 && span > 1e-12 { vLower = v22 + (v21 - v22) * ((0 - lower2) / span) }
    if upper2 > upper1 && span > 1e-12 { vUpper = v22 + (v21 - v22) * ((upper1 - lower2) / span) }
    let sepLower = (vLower - v11).dot(n), sepUpper = (vUpper - v11).dot(n)
    vLower = vLower - n * (0.5 * sepLower)
    vUpper = vUpper - n * (0.5 * sepUpper)
    if !flip {
        m.normal = n
        m.add(vLower, sepLower, UInt32(i11 << 8 | i22), margin)
        m.add(vUpper, sepUpper, UInt32(i12 << 8 | i21), margin)
    } else {
        m.normal = -n
        m.add(vUpper, sepUpper, UInt32(i21 << 8 | i12) | 0x2_0000, margin)
        m.add(vLower, sepLower, UInt32(i22 << 8 | i11) | 0x2_0000, margin)
    }
    return m
}

/// A lower bound of the distance between two shapes (negative when they overlap), for continuous collision:
/// exact for two circles and for a polygon and a circle; for two polygons the largest separation along a face
/// normal of either (the separating axis test), which equals the distance whenever a face is closest.
func shapeSeparation(_ a: ShapeView, _ b: ShapeView) -> Double {
    switch (a.isCircle, b.isCircle) {
    case (true, true): return (b.center - a.center).length - a.radius - b.radius
    case (false, true): return collidePolygonCircle(a, b, .infinity).p0.separation
    case (true, false): return collidePolygonCircle(b, a, .infinity).p0.separation
    case (false, false): return max(maxSeparation(a, b).separation, maxSeparation(b, a).separation)
    }
}
