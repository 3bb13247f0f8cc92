import Dynamics
import Testing
@testable import DynRoom
@testable import dynserver

/// The seed scenes reproduce their recipe when watched (docs/ENGINE.md, "Scenes").
@Suite struct SceneRecipeTests {
    private func load(_ name: String) -> SharedWorld {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        _ = try? world.loadScene(name)
        return world
    }

    @Test(.timeLimit(.minutes(3))) func defaultSceneKeepsTheBoxOnItsShelfFor10Seconds() throws {
        let world = load("default")
        let a = world.animator
        let box = try #require(a.itemIDs.first { a.item($0)?.shape == .rect && a.item($0)?.width == 40 && a.item($0)?.height == 40 })
        let start = try #require(a.item(box)).center
        var worst = 0.0
        for _ in 0..<600 {
            a.step()
            let c = try #require(a.item(box)).center
            worst = max(worst, (c - start).length)
        }
        #expect(worst < 20, "the shelf's box moved \(worst) pt from where it sat")
    }

    @Test(.timeLimit(.minutes(3))) func defaultSceneComesToRest() throws {
        let world = load("default")
        let a = world.animator
        var steps = 0
        while a.isRunning && steps < 60 * 60 { a.step(); steps += 1 }
        #expect(!a.isRunning, "still moving after \(Double(steps) / 60) s")
    }

    @Test(.timeLimit(.minutes(3))) func elasticitySceneBouncesTheStackTogetherAndTheLoneElasticSquareHigher() throws {
        let world = load("elasticity")
        let a = world.animator
        let ids = a.itemIDs
        #expect(ids.count == 4)
        let states = ids.compactMap { a.item($0) }
        // The stacked pair shares an x; the pair apart stands on two others.
        let stackX = try #require(states.first).center.x
        let stack = states.filter { abs($0.center.x - stackX) < 1 }.sorted { $0.center.y < $1.center.y }
        let apart = states.filter { abs($0.center.x - stackX) >= 1 }
        #expect(stack.count == 2 && apart.count == 2)
        let elastic = try #require(apart.first { $0.properties.elasticity > 0 }).id
        let inelastic = try #require(apart.first { $0.properties.elasticity == 0 }).id
        var maxGap = 0.0, elasticPeak = Double.infinity, inelasticPeak = Double.infinity
        var elasticLanded = false, inelasticLanded = false
        for _ in 0..<180 {
            a.step()
            let top = a.item(stack[0].id)!, bottom = a.item(stack[1].id)!
            maxGap = max(maxGap, bottom.center.y - top.center.y - top.height / 2 - bottom.height / 2)
            let e = a.item(elastic)!, i = a.item(inelastic)!
            if e.velocity.y < 0 { elasticLanded = true }
            if i.center.y > 570 { inelasticLanded = true }
            if elasticLanded { elasticPeak = min(elasticPeak, e.center.y) }
            if inelasticLanded { inelasticPeak = min(inelasticPeak, i.center.y) }
        }
        #expect(maxGap < 5, "the stack's top square flew \(maxGap) pt off")
        let floorY = 575.0
        #expect(floorY - elasticPeak > 100, "the lone elastic square rebounded \(floorY - elasticPeak) pt")
        #expect(floorY - inelasticPeak < 5, "the lone inelastic square rebounded \(floorY - inelasticPeak) pt")
    }
}
