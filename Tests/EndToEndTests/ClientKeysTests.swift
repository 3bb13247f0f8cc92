import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The direct keys and the `:` command line of `dynclient`, typed on a real pseudo-terminal against a
    /// real `dynserver`, their effects read back by a second connection.
    @Suite(.serialized) struct ClientKeysTests {
        @Test(.timeLimit(.minutes(5))) func numberKeysLoadEveryListedSceneInOrder() throws {
            let session = try ClientSession(serverArguments: ["--scene", "empty"])
            let listed = ["default", "empty", "gravity", "collision", "push", "attachment", "snap", "elasticity", "fields", "joints"]
            for (index, name) in listed.enumerated() {
                session.client.type(String((index + 1) % 10))
                let loaded = session.control.waitFor(timeout: 5) { if case let .scene(scene) = $0 { scene.name == name } else { false } }
                #expect(loaded != nil, "key \(index + 1) did not load \(name)")
            }
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene joints |") })
            // The eleventh has no key: the : line takes it.
            session.client.type(":scene group\r")
            #expect(session.control.waitFor(timeout: 5) { if case let .scene(scene) = $0 { scene.name == "group" } else { false } } != nil)
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func colonSceneSnapLoadsItAndTheStatusLineSaysSo() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            session.client.type(":scene sn")
            // Tab completes the scene name.
            session.client.type("\t\r")
            let loaded = session.control.waitFor(timeout: 5) { if case let .scene(scene) = $0 { scene.name == "snap" } else { false } }
            #expect(loaded != nil)
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene snap |") },
                    "\(session.client.screen.text)")
            #expect(session.client.waitForScreen { $0.contains("loaded snap") })
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func aMistypedLineIsNotSentAndSaysWhy() throws {
            let session = try ClientSession()
            session.client.type(":collision sideways\r")
            #expect(session.client.waitForScreen { $0.contains("collision: \"sideways\" is not items, boundaries or everything") },
                    "\(session.client.screen.text)")
            // Nothing reached the server: the next command's answer is the first one the control sees change.
            session.client.type("c")
            let scene = session.control.nextScene()
            #expect(scene?.collisionMode == .items)
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func cCyclesTheCollisionMode() throws {
            let session = try ClientSession()
            #expect(session.scene?.collisionMode == .everything)
            session.client.type("c")
            #expect(session.control.nextScene()?.collisionMode == .items)
            // The next press cycles from the mode the client knows: wait until its answer is in.
            #expect(session.client.waitForScreen { $0.contains("collision mode items") })
            session.client.type("c")
            #expect(session.control.nextScene()?.collisionMode == .boundaries)
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func nSpawnsABoxAtTheCursorAndTheBodyCountGrows() throws {
            let session = try ClientSession()
            #expect(session.scene?.bodies.count == 0)
            // The cursor starts at the centre (400, 300); one cell right is 10 pt.
            session.client.type("\u{1B}[Cn")
            let scene = try #require(session.control.nextScene())
            #expect(scene.bodies.count == 1)
            let body = try #require(scene.bodies.first)
            let state = session.control.nextSnapshot { $0.bodies.contains { $0.id == body.id } }?.bodies.first { $0.id == body.id }
            #expect(state.map { abs($0.x - 410) < 1 } == true)
            session.client.type("n")
            #expect(session.control.nextScene()?.bodies.count == 2)
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func eEditsTheElasticityOfTheSelection() throws {
            var body = 0
            let session = try ClientSession { control in body = try ClientSession.box(control) }
            session.client.type("\t")
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).contains("sel #\(body) rect 100x100") })
            session.client.type("e")
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 2).hasPrefix(":set \(body) ") })
            session.client.type("elasticity 0.8\r")
            let scene = session.control.nextScene()
            #expect(scene?.bodies.first { $0.id == body }?.elasticity == 0.8)
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).contains("sel #\(body) rect 100x100 e0.8") })
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func xRemovesTheSelection() throws {
            var body = 0
            let session = try ClientSession { control in body = try ClientSession.box(control) }
            session.client.type("\tx")
            let scene = session.control.nextScene()
            #expect(scene?.bodies.contains { $0.id == body } == false)
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func pHoldsTheWorldAndDotStepsExactlyOneTick() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            session.client.type("p")
            let held = try #require(session.control.nextSnapshot { $0.held })
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).contains("| held | tick \(held.tick) |") },
                    "\(session.client.screen.text)")
            session.client.type(".")
            let stepped = session.control.nextSnapshot { $0.tick != held.tick }
            #expect(stepped?.tick == held.tick + 1)
            #expect(stepped?.held == true)
            session.client.type("p")
            #expect(session.control.nextSnapshot { !$0.held } != nil)
            session.quit()
        }
    }
}
