import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The page's pointer and keyboard features in a real headless Chromium against a real server, each seen
    /// from outside by a TCP observer or in the page's own pixels and DOM: handles, empty space, errors in
    /// words, tap rings, the property panel, names that stick (docs/PROTOCOL.md, "HTTP").
    @Suite(.serialized, .timeLimit(.minutes(1)), RequiredTool.chromium.trait)
    struct PageTests {
        @Test func draggingAnAnchorsHandleMovesTheAnchorAnObserverSees() throws {
            let page = try PageSession(["--scene", "attachment"])
            let attachment = try #require(page.scene?.attachments.first)
            let anchor = try #require(attachment.anchor)
            let handles = try #require(try page.evaluate("dyn.handles().length") as? Int)
            #expect(handles == 1, "one anchor handle drawn")
            let from = try page.screen(anchor.x, anchor.y)
            let to = try page.screen(anchor.x + 150, anchor.y + 40)
            try page.drag(from: from, to: to)
            let moved = page.observer.waitFor(timeout: 10) { message in
                guard case let .scene(scene) = message, let a = scene.attachments.first(where: { $0.id == attachment.id }),
                      let at = a.anchor else { return false }
                return abs(at.x - (anchor.x + 150)) < 3 && abs(at.y - (anchor.y + 40)) < 3
            }
            #expect(moved != nil, "the observer sees the anchor at the release point")
            // The handle moved the anchor, not the item: nobody dragged it.
            let snapshot = page.observer.nextSnapshot(timeout: 5)
            #expect(snapshot?.drags.isEmpty == true)
            #expect(page.text("document.getElementById('error').textContent").isEmpty)
            try page.screenshot("page-anchor-moved")
        }

        @Test func draggingAFieldsHandleMovesTheFieldAnObserverSees() throws {
            let page = try PageSession(["--scene", "fields"])
            let vortex = try #require(page.scene?.fields.first { $0.kind == .vortex })
            try page.drag(from: try page.screen(vortex.x, vortex.y), to: try page.screen(vortex.x - 60, vortex.y + 80))
            let moved = page.observer.waitFor(timeout: 10) { message in
                guard case let .scene(scene) = message, let f = scene.fields.first(where: { $0.id == vortex.id }) else { return false }
                return abs(f.x - (vortex.x - 60)) < 3 && abs(f.y - (vortex.y + 80)) < 3
            }
            #expect(moved != nil, "the observer sees the vortex at the release point")
            #expect(page.text("document.getElementById('error').textContent").isEmpty)
        }

        @Test func pressingEmptySpaceAndMovingSendsNoDragAndShowsNoError() throws {
            let page = try PageSession(["--scene", "push"])
            let sentBefore = try #require(try page.evaluate("dyn.sent") as? Int)
            // The push scene's square is in the middle; (100, 100) to (300, 150) is empty space.
            try page.drag(from: try page.screen(100, 100), to: try page.screen(300, 150))
            // Then something that is answered (hold): any answer to a drag would have come before it.
            let hold = try page.center("#hold")
            try page.browser.click(x: hold.x, y: hold.y)
            #expect(page.observer.nextSnapshot(timeout: 10) { $0.held } != nil, "the hold arrived")
            #expect(Reliability.eventually(timeout: 5) { page.text("dyn.motion") == "held" })
            let sent = try #require(try page.evaluate("dyn.sent") as? Int)
            #expect(sent - sentBefore <= 2, "only the hold (and perhaps a ping) went out, not a drag: \(sent - sentBefore) messages")
            #expect(page.text("document.getElementById('error').textContent") == "")
            #expect(try page.evaluate("dyn.lastError === null") as? Bool == true, "\(String(describing: try? page.evaluate("JSON.stringify(dyn.lastError)")))")
        }

        @Test func anErrorIsShownInWordsOnceAndTheNextSuccessClearsIt() throws {
            let page = try PageSession(["--scene", "push"])
            let square = try #require(page.scene?.bodies.first)
            // Select the square with Tab, then ask for an elasticity out of range in the panel.
            try page.key("Tab", code: "Tab", keyCode: 9)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.selected")) as? Int == square.id })
            let field = try page.center("#prop-elasticity")
            try page.browser.click(x: field.x, y: field.y)
            _ = try page.evaluate("document.getElementById('prop-elasticity').select()")
            try page.type("5")
            try page.key("Tab", code: "Tab", keyCode: 9)
            #expect(Reliability.eventually(timeout: 5) { !page.text("document.getElementById('error').textContent").isEmpty })
            let error = page.text("document.getElementById('error').textContent")
            #expect(error.hasPrefix("set elasticity: not accepted"), "in words: \(error)")
            #expect(!error.contains("bad_value"), "no raw code: \(error)")
            // A success (spawning a box with the button) clears it.
            let spawn = try page.center("#spawnBox")
            try page.browser.click(x: spawn.x, y: spawn.y)
            #expect(page.observer.nextScene(timeout: 10)?.bodies.count == 2, "the spawn arrived")
            #expect(Reliability.eventually(timeout: 5) { page.text("document.getElementById('error').textContent").isEmpty },
                    "still: \(page.text("document.getElementById('error').textContent"))")
            // A scene change drops a selection that no longer exists: nothing stale is sent afterwards.
            #expect(try page.observer.ack(.scene(name: "snap"), id: 1) != nil)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.selected === null && document.getElementById('remove').disabled")) as? Bool == true })
            try page.key("Delete", code: "Delete", keyCode: 46)
            let said = page.text("document.getElementById('error').textContent")
            #expect(said == "select an item first (tap it, or Tab)", "\(said)")
        }

        @Test func aTapDrawsARingWhereItLanded() throws {
            let page = try PageSession(["--scene", "push"])
            // Empty space left of the square: the tap pushes the nearest item (the square) toward it.
            let at = try page.screen(200, 150)
            let scale = try #require(try page.object("dyn.worldRect()")["width"] as? Double) / 800
            let radius = 18 * scale
            let ring = (0..<8).map { k in (at.x + radius * cos(Double(k) * .pi / 4), at.y + radius * sin(Double(k) * .pi / 4)) }
            func cyan(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r < 150 && p.g > 200 && p.b > 200 }
            #expect(try ring.allSatisfy { !cyan(try page.pixel($0.0, $0.1)) }, "no ring before the tap")
            try page.browser.click(x: at.x, y: at.y)
            var seen = 0
            let drawn = Reliability.eventually(timeout: 0.8) {
                seen = ring.filter { (try? cyan(page.pixel($0.0, $0.1))) == true }.count
                return seen >= 6
            }
            #expect(drawn, "ring pixels at \(seen) of 8 points on the circle")
            if drawn { try page.screenshot("page-tap-ring") }
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.taps")) as? Int == 1 }, "the tap was acknowledged")
            // It goes away again.
            #expect(Reliability.eventually(timeout: 3) { ring.allSatisfy { (try? cyan(page.pixel($0.0, $0.1))) == false } })
        }

        @Test func aPropertyPanelEditSendsSetThatAnObserverSees() throws {
            let page = try PageSession(["--scene", "push"])
            let square = try #require(page.scene?.bodies.first)
            #expect(square.friction == 0 && !square.anchored)
            // Clicking the square selects it (and taps it).
            let p = try #require(try page.object("dyn.screenPointOf(\(square.id))")["x"] as? Double)
            let q = try #require(try page.object("dyn.screenPointOf(\(square.id))")["y"] as? Double)
            try page.browser.click(x: p, y: q)
            #expect(Reliability.eventually(timeout: 5) { page.text("document.getElementById('selected').textContent").hasPrefix("#\(square.id) rect") })
            let field = try page.center("#prop-friction")
            try page.browser.click(x: field.x, y: field.y)
            _ = try page.evaluate("document.getElementById('prop-friction').select()")
            try page.type("0.35")
            try page.key("Tab", code: "Tab", keyCode: 9)
            let changed = page.observer.waitFor(timeout: 10) { message in
                if case let .scene(scene) = message { return scene.bodies.first { $0.id == square.id }?.friction == 0.35 }
                return false
            }
            #expect(changed != nil, "the observer's scene has friction 0.35")
            let box = try page.center("#prop-anchored")
            try page.browser.click(x: box.x, y: box.y)
            let anchored = page.observer.waitFor(timeout: 10) { message in
                if case let .scene(scene) = message { return scene.bodies.first { $0.id == square.id }?.anchored == true }
                return false
            }
            #expect(anchored != nil, "the observer's scene has the square anchored")
            #expect(Reliability.eventually(timeout: 5) { page.text("document.getElementById('result').textContent") == "set #\(square.id)" })
        }

        @Test func theToolsAndKeysReachTheWorldAnObserverWatches() throws {
            let page = try PageSession(["--scene", "push"])
            let square = try #require(page.scene?.bodies.first)
            func click(_ selector: String) throws { let c = try page.center(selector); try page.browser.click(x: c.x, y: c.y) }
            func nextScene(_ what: String, _ predicate: @escaping (SceneInfo) -> Bool) -> SceneInfo? {
                let found = page.observer.waitFor(timeout: 10) { if case let .scene(scene) = $0 { predicate(scene) } else { false } }
                guard case let .scene(scene)? = found else { Issue.record("no scene with \(what)"); return nil }
                return scene
            }
            try click("#spawnBox")
            let spawned = try #require(nextScene("a spawned box") { $0.bodies.count == 2 })
            let box = try #require(spawned.bodies.first { $0.id != square.id })
            // The spawn selected the new box: remove takes it away again.
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.selected")) as? Int == box.id })
            try click("#remove")
            _ = nextScene("the box removed") { $0.bodies.map(\.id) == [square.id] }
            // c cycles the collision mode, g turns gravity a quarter turn (off in this scene: down, then left).
            try page.key("c", code: "KeyC", keyCode: 67, text: "c")
            _ = nextScene("collision items") { $0.collisionMode == .items }
            try page.key("g", code: "KeyG", keyCode: 71, text: "g")
            _ = nextScene("gravity left") { $0.gravity.dx < -0.99 && $0.gravity.magnitude == 1 }
            // Place a field: arm it, then a click in the world puts it there.
            try click("#placeField")
            let at = try page.screen(150, 450)
            try page.browser.click(x: at.x, y: at.y)
            let field = nextScene("a field") { !$0.fields.isEmpty }?.fields.first
            #expect(field?.kind == .radialGravity && abs((field?.x ?? 0) - 150) < 2 && abs((field?.y ?? 0) - 450) < 2, "\(String(describing: field))")
            // Hold, then step exactly one tick.
            try click("#hold")
            let held = try #require(page.observer.nextSnapshot(timeout: 10) { $0.held })
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("!document.getElementById('step').disabled")) as? Bool == true })
            try click("#step")
            let stepped = page.observer.nextSnapshot(timeout: 10) { $0.tick != held.tick }
            #expect(stepped?.tick == held.tick + 1 && stepped?.held == true, "\(String(describing: stepped?.tick)) after \(held.tick)")
            #expect(page.text("document.getElementById('error').textContent") == "")
        }

        @Test func aNameSetOnThePageIsInOthersNoticesAndSticks() throws {
            let page = try PageSession(["--scene", "push"])
            let button = try page.center("#name")
            try page.browser.click(x: button.x, y: button.y)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("document.activeElement.id")) as? String == "nameInput" })
            _ = try page.evaluate("document.getElementById('nameInput').select()")
            try page.type("ada lovelace")
            try page.key("Enter", code: "Enter", keyCode: 13, text: "\r")
            #expect(Reliability.eventually(timeout: 5) { page.text("document.getElementById('name').textContent") == "ada lovelace" })
            // Key 7 loads the seventh scene (snap): the observer's notice carries the name.
            _ = try page.evaluate("document.activeElement && document.activeElement.blur()")
            try page.key("7", code: "Digit7", keyCode: 55, text: "7")
            let notice = page.observer.waitFor(timeout: 10) { if case .notice = $0 { true } else { false } }
            guard case let .notice(first)? = notice else { Issue.record("no notice"); return }
            #expect(first.name == "ada lovelace" && first.summary == "loaded snap", "\(first)")
            // A reload keeps it (localStorage), and says it in hello again.
            try page.browser.call("Page.reload")
            #expect(Reliability.eventually(timeout: 20) { page.text("dyn.state") == "open" && page.text("dyn.name") == "ada lovelace" })
            try page.key("5", code: "Digit5", keyCode: 53, text: "5")
            let again = page.observer.waitFor(timeout: 10) { if case let .notice(n) = $0 { n.summary == "loaded push" } else { false } }
            guard case let .notice(second)? = again else { Issue.record("no notice after the reload"); return }
            #expect(second.name == "ada lovelace")
        }
    }
}
