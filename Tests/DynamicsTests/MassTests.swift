import Testing
@testable import Dynamics

@Test func massIsDensityTimesAreaOver10000() throws {
    let a = makeWorld()
    let unit = try a.addItem(width: 100, height: 100, center: Vec2(100, 100))
    let wide = try a.addItem(width: 300, height: 50, center: Vec2(300, 100), properties: .init(density: 2))
    let disc = try a.addItem(shape: .ellipse, width: 60, height: 60, center: Vec2(500, 100),
                             properties: .init(density: 0.5))
    #expect(a.item(unit)!.mass == 1)
    #expect(a.item(wide)!.mass == 3)
    #expect(abs(a.item(disc)!.mass - 0.18) < 1e-12)
    try a.setProperties(unit, .init(density: 4))
    #expect(a.item(unit)!.mass == 4)
}
