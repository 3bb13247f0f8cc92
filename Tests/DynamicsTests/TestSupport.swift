@testable import Dynamics

/// An 800 × 600 animator with the default gravity and collision behaviors (reference bounds as boundary).
func makeWorld(gravity: Bool = true, collision: Bool = true) -> DynamicAnimator {
    let a = DynamicAnimator(width: 800, height: 600)
    if gravity { _ = a.add(GravityBehavior()) }
    if collision { _ = a.add(CollisionBehavior()) }
    return a
}

extension DynamicAnimator {
    /// Steps for `seconds` of simulated time (at 60 Hz), calling `each` after every step.
    func run(seconds: Double, _ each: () -> Void = {}) {
        let n = Int((seconds * stepHz).rounded())
        for _ in 0..<n {
            step()
            each()
        }
    }

    func center(_ id: ItemID) -> Vec2 { item(id)!.center }
}

func distance(_ a: Vec2, _ b: Vec2) -> Double { (a - b).length }

/// FNV-1a over the bit patterns of every item's center and angle, in insertion order.
func transformHash(_ a: DynamicAnimator) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ v: Double) {
        var bits = v.bitPattern
        for _ in 0..<8 {
            h ^= bits & 0xff
            h = h &* 0x0000_0100_0000_01b3
            bits >>= 8
        }
    }
    a.forEachItem { _, c, angle, _, _ in
        mix(c.x)
        mix(c.y)
        mix(angle)
    }
    return h
}
