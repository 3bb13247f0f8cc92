import NetProtocol
import Testing
@testable import DynRoom
@testable import dynserver

/// Every preset scene tells people what it shows and what to try (docs/PROTOCOL.md, `scene.caption`), and the
/// caption survives the wire.
@Suite struct SceneCaptionTests {
    @Test(.timeLimit(.minutes(1)), arguments: Scenes.names)
    func everySceneHasACaptionInItsSceneMessage(_ name: String) throws {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        _ = try world.loadScene(name)
        let caption = try #require(world.sceneInfo().caption, "\(name) has no caption")
        #expect(caption.count >= 40 && caption.hasSuffix("."), "\(name): \(caption)")
        // Encoded and decoded as a client reads it.
        guard case let .scene(decoded)? = ServerMessage.decode(ServerMessage.scene(world.sceneInfo()).encoded()) else {
            Issue.record("the scene message does not decode")
            return
        }
        #expect(decoded.caption == caption)
    }

    @Test(.timeLimit(.minutes(1))) func theCaptionsSayWhatToTryWhereARecipeNeedsIt() {
        #expect(Scenes.caption("snap")?.contains("Tab") == true && Scenes.caption("snap")?.contains("right click") == true)
        let collision = Scenes.caption("collision") ?? ""
        // The keys it names do what it says: r reloads, c twice goes everything -> items -> boundaries.
        for step in ["Reload them (r)", "c twice", "items, then boundaries"] { #expect(collision.contains(step), "collision: \(step)") }
        #expect(Scenes.caption("elasticity")?.contains("bounce together") == true)
        #expect(Scenes.caption("no-such-scene") == nil)
    }

    @Test(.timeLimit(.minutes(1))) func aSceneWithoutCaptionEncodesNone() {
        let bare = SceneInfo(name: "x", gravity: GravityInfo(dx: 0, dy: 1, magnitude: 1), collisionMode: .everything, bodies: [])
        let text = String(decoding: ServerMessage.scene(bare).encoded(), as: UTF8.self)
        #expect(!text.contains("caption"))
        guard case let .scene(decoded)? = ServerMessage.decode(text) else { Issue.record("no decode"); return }
        #expect(decoded.caption == nil)
    }
}
