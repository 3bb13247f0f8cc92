import Foundation
import Testing

extension EndToEnd {
    /// The `collision` scene played on the page as its caption says, in a real headless Chromium: reload the
    /// scene (the scene menu), then set collision to boundaries with the page's collision menu while the
    /// squares fall: both stop on the line, through each other, at rest; with `items` instead they fall out of
    /// the world and the world comes to rest all the same (docs/ENGINE.md, "Departed items").
    @Suite(.serialized, .timeLimit(.minutes(1))) struct PageCollisionCaptionTests {
        private func choose(_ page: PageSession, _ select: String, _ value: String) throws {
            _ = try page.evaluate("""
                (() => { const s = document.getElementById('\(select)'); s.value = '\(value)'; s.dispatchEvent(new Event('change')); return 1; })()
                """)
        }

        @Test(RequiredTool.chromium.trait) func theCollisionSceneDoesWhatItsCaptionSaysOnThePage() throws {
            let page = try PageSession(["--scene", "collision"])
            #expect(page.text("document.getElementById('caption').textContent").contains("collision menu"))
            let scenes = page.observer.sceneCount
            try choose(page, "scenes", "collision")
            #expect(page.observer.scene(after: scenes, timeout: 10)?.name == "collision", "reloaded")
            try choose(page, "collision", "boundaries")
            // The line is at 80 % of the 600 pt height: a 100 pt square rests with its centre at 430.
            let rested = page.observer.nextSnapshot(timeout: 30) { s in
                s.paused && s.bodies.count == 2 && s.bodies.allSatisfy { abs($0.y - 430) < 3 }
            }
            #expect(rested != nil, "both squares on the line, through each other, at rest")
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('motion').textContent").hasPrefix("at rest") })
            // Items only: the line no longer holds them; they fall out and the world rests again.
            try choose(page, "collision", "items")
            let departed = page.observer.nextSnapshot(timeout: 30) { s in
                s.paused && s.bodies.count == 2 && s.bodies.allSatisfy { $0.y > 600 + 100 }
            }
            #expect(departed != nil, "both squares fell out of the world, and the world paused")
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('motion').textContent").hasPrefix("at rest") },
                    "the page says at rest: \(page.text("document.getElementById('motion').textContent"))")
        }
    }
}
