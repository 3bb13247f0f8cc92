import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Mass": mass = density × area of the collision shape / 10 000.
@Test(.timeLimit(.minutes(3))) func massIsDensityTimesAreaOfTheShapeOver10000() throws {
    let a = makeWorld()
    let unit = try a.addItem(width: 100, height: 100, center: Vec2(100, 100))
    let wide = try a.addItem(width: 300, height: 50, center: Vec2(300, 100), properties: .init(density: 2))
    let disc = try a.addItem(shape: .ellipse, width: 100, height: 100, center: Vec2(500, 100))
    let triangle = try a.addItem(shape: .polygon([Vec2(0, 0), Vec2(60, 0), Vec2(0, 40)]), width: 60, height: 40,
                                 center: Vec2(650, 100), properties: .init(density: 3))
    #expect(a.item(unit)!.mass == 1)
    #expect(a.item(wide)!.mass == 3)
    #expect(abs(a.item(disc)!.mass - 0.785398) < 1e-6)
    #expect(abs(a.item(triangle)!.mass - 3 * 1200 / 10_000) < 1e-12)
    try a.setProperties(unit, .init(density: 4))
    #expect(a.item(unit)!.mass == 4)
}

@Test(.timeLimit(.minutes(3))) func polygonMassPropertiesMatchTheRightTriangle() {
    // Legs 60 (x) and 40 (y) from the origin: area 1200, centroid (20, 40/3), inertia about the centroid
    // per unit mass (a² + b²) / 18.
    let m = MassProperties.polygon([Vec2(0, 0), Vec2(60, 0), Vec2(0, 40)])
    #expect(abs(m.area - 1200) < 1e-9)
    #expect(abs(m.centroid.x - 20) < 1e-9 && abs(m.centroid.y - 40.0 / 3) < 1e-9)
    #expect(abs(m.unitInertia - (3600 + 1600) / 18) < 1e-9)
}

@Test(.timeLimit(.minutes(3))) func squarePolygonHasTheRectangleMassProperties() {
    let m = MassProperties.polygon([Vec2(-50, -50), Vec2(50, -50), Vec2(50, 50), Vec2(-50, 50)])
    let r = MassProperties.rectangle(width: 100, height: 100)
    #expect(abs(m.area - r.area) < 1e-9)
    #expect(m.centroid.length < 1e-12)
    #expect(abs(m.unitInertia - r.unitInertia) < 1e-9)
}

/// A triangle whose points are given relative to its blunt end rests on a narrow pedestal right under its
/// centroid: it balances, because it turns about its centroid, and the snapshot keeps reporting the
/// origin of its points as its center.
@Test(.timeLimit(.minutes(3))) func offCentreTriangleBalancesOnAPedestalUnderItsCentroid() throws {
    let a = makeWorld()
    // A right triangle: blunt end 60 tall at x = 0, flat bottom edge at y = 20, tip at x = 180; its centroid
    // is at (60, 0) from the origin of its points.
    let points = [Vec2(0, -40), Vec2(0, 20), Vec2(180, 20)]
    _ = try a.addItem(width: 10, height: 200, center: Vec2(460, 500), properties: .init(friction: 1, anchored: true))
    let tri = try a.addItem(shape: .polygon(points), width: 180, height: 60, center: Vec2(400, 380),
                            properties: .init(friction: 1))
    a.run(seconds: 4)
    let s = a.item(tri)!
    #expect(abs(s.angle) < 0.05, "tipped over to \(s.angle) rad")
    #expect(abs(s.center.x - 400) < 3, "reported center \(s.center)")
    // Resting on the pedestal's top (y = 400): the flat bottom edge is at 20 below the points' origin.
    #expect(abs(s.center.y - 380) < 2)
}
