import NetProtocol
@testable import dynclient

/// A world of 800 x 600 with a 100 x 100 box (id 1) at (400, 300) and a circle of diameter 80 (id 2) at
/// (200, 150), as the server would describe it.
enum Fixtures {
    static let welcome = Welcome(client: 7, server: "dynserver test", worldWidth: 800, worldHeight: 600,
                                 tickHz: 60, snapshotHz: 30, authRequired: false)
    static let scene = SceneInfo(
        name: "default", gravity: GravityInfo(dx: 0, dy: 1, magnitude: 1), collisionMode: .everything,
        bodies: [BodyInfo(id: 1, shape: .rect, width: 100, height: 100, color: "#ff0000"),
                 BodyInfo(id: 2, shape: .ellipse, width: 80, height: 80, color: "#0000ff")])

    static func snapshot(tick: UInt64, boxX: Double = 400, boxAngle: Double = 0, paused: Bool = false,
                         drags: [DragInfo] = []) -> Snapshot {
        Snapshot(tick: tick, time: Double(tick) / 60, paused: paused, clients: 2,
                 bodies: [BodyState(id: 1, x: boxX, y: 300, angle: boxAngle), BodyState(id: 2, x: 200, y: 150, angle: 0)],
                 drags: drags)
    }

    static func world(boxX: Double = 400) -> WorldModel {
        var world = WorldModel()
        world.apply(welcome: welcome)
        world.apply(scene: scene)
        world.apply(snapshot: snapshot(tick: 2, boxX: boxX), arrivalMs: 1000)
        return world
    }
}
