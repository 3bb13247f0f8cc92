/// Area, centroid and rotational inertia of a collision shape, per unit of mass (docs/ENGINE.md, "Mass").
/// The item's mass is density × area / 10 000; it turns about `centroid` (in the item's frame, relative to
/// the item's center), and `unitInertia` is the moment of inertia about the centroid for a mass of 1.
struct MassProperties: Sendable, Equatable {
    var area: Double
    var centroid: Vec2
    var unitInertia: Double

    /// A convex polygon wound counter-clockwise in the engine's sense (`cross(e_i, e_i+1) > 0`), split into
    /// triangles from its first vertex (as Box2D's polygon mass computation does, for accuracy far from the
    /// origin): area, centroid, and the second moment about the centroid divided by the area.
    static func polygon(_ v: [Vec2]) -> MassProperties {
        let origin = v[0]
        var area = 0.0, center = Vec2.zero, inertia = 0.0
        for i in 1..<(v.count - 1) {
            let e1 = v[i] - origin, e2 = v[i + 1] - origin
            let d = e1.cross(e2)
            let triangleArea = 0.5 * d
            area += triangleArea
            center += (e1 + e2) * (triangleArea / 3)
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
            inertia += (0.25 / 3 * d) * (intx2 + inty2)
        }
        let c = center * (1 / area)
        // Inertia about the first vertex per unit area, moved to the centroid (parallel axis theorem).
        let unitAboutCentroid = inertia / area - c.lengthSquared
        return MassProperties(area: area, centroid: origin + c, unitInertia: unitAboutCentroid)
    }

    static func rectangle(width: Double, height: Double) -> MassProperties {
        MassProperties(area: width * height, centroid: .zero, unitInertia: (width * width + height * height) / 12)
    }

    static func circle(radius r: Double) -> MassProperties {
        MassProperties(area: Double.pi * r * r, centroid: .zero, unitInertia: r * r / 2)
    }
}
