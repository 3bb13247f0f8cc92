import Dynamics

/// `bounce N`: the physics of `dynbench server`'s world, for timing and profiling it without the network. N
/// bodies of 20 × 20 pt (boxes and circles alternating, elasticity 1, no gravity) with random velocities of up
/// to 300 pt/s along each axis, one per cell of a grid over a 4 000 × 3 000 pt room closed by a boundary (the
/// server's `--world 4000x3000` reference bounds). The seed is fixed, so every run is the same world.
enum BounceScene: BenchScene {
    static let name = "bounce"
    static let defaultSize = 1000
    static let sizeMeaning = "bodies"

    static func build(_ a: DynamicAnimator, size count: Int) throws -> BuiltScene {
        var collision = CollisionBehavior()
        collision.items = .all
        collision.mode = .everything
        collision.addBoundary(id: "room", points: [Vec2(0, 0), Vec2(4000, 0), Vec2(4000, 3000), Vec2(0, 3000)],
                              closed: true)
        _ = a.add(collision)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + (range.upperBound - range.lowerBound) * Double(seed >> 11) / Double(1 << 53)
        }
        let columns = max(1, Int((Double(count) * 4 / 3).squareRoot().rounded(.up)))
        let rows = max(1, (count + columns - 1) / columns)
        let cellW = 3900 / Double(columns), cellH = 2900 / Double(rows)
        var ids: [ItemID] = []
        for i in 0..<count {
            let center = Vec2(50 + Double(i % columns) * cellW + random(0...max(0, cellW - 30)),
                              50 + Double(i / columns) * cellH + random(0...max(0, cellH - 30)))
            ids.append(try a.addItem(shape: i % 2 == 0 ? .rect : .ellipse, width: 20, height: 20, center: center,
                                     velocity: Vec2(random(-300...300), random(-300...300)),
                                     properties: ItemProperties(elasticity: 1)))
        }
        return BuiltScene(bodies: ids)
    }
}
