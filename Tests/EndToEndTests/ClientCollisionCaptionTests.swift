import Foundation
import Testing

extension EndToEnd {
    /// The `collision` scene played as its caption says, in `dynclient` against a real server: reload (r), then
    /// c twice to boundaries while they fall: both squares end on the line, through each other (stacked,
    /// one would rest 100 pt higher), and the world comes to rest.
    @Suite(.serialized, .timeLimit(.minutes(1))) struct ClientCollisionCaptionTests {
        @Test func theCollisionSceneDoesWhatItsCaptionSays() throws {
            let server = try ServerProcess(["--scene", "collision"])
            let control = try server.connect()
            _ = control.join()
            let client = try PseudoTerminalClient(arguments: ["--port", String(server.port)], columns: 120, rows: ClientSession.rows)
            let status = ClientSession.rows - 1
            #expect(client.waitForScreen { $0.text(row: status).contains("scene collision") })
            #expect(client.waitForScreen { $0.contains("Reload them (r)") }, "the caption shows")
            client.type("r")
            #expect(control.nextScene(timeout: 10)?.name == "collision", "reloaded")
            client.type("c")
            #expect(client.waitForScreen { $0.contains("collide items") })
            client.type("c")
            #expect(client.waitForScreen { $0.contains("collide boundaries") })
            // The line is at 80 % of the 600 pt height: a 100 pt square rests with its centre at 430.
            let rested = control.nextSnapshot(timeout: 30) { s in
                s.paused && s.bodies.count == 2 && s.bodies.allSatisfy { abs($0.y - 430) < 3 }
            }
            #expect(rested != nil, "both squares on the line, through each other, at rest")
            client.type("q")
            #expect(client.waitForExit() == 0)
            withExtendedLifetime(server) {}
        }

        /// The step a new user takes first: reload (r), then one c, which collides items only: both squares
        /// fall through the line and out of the 600 pt world. Once both are more than the departed margin
        /// (docs/ENGINE.md, "Departed items": 100 pt) below it and still falling, the world is at rest; the
        /// terminal's status line says so (it said `running` forever).
        @Test func aWorldWhoseItemsAllFellOutComesToRest() throws {
            let server = try ServerProcess(["--scene", "collision"])
            let control = try server.connect()
            _ = control.join()
            let client = try PseudoTerminalClient(arguments: ["--port", String(server.port)], columns: 120, rows: ClientSession.rows)
            let status = ClientSession.rows - 1
            #expect(client.waitForScreen { $0.text(row: status).contains("scene collision") })
            client.type("r")
            #expect(control.nextScene(timeout: 10)?.name == "collision", "reloaded")
            client.type("c")
            #expect(client.waitForScreen { $0.contains("collide items") })
            let departed = control.nextSnapshot(timeout: 30) { s in
                s.paused && s.bodies.count == 2 && s.bodies.allSatisfy { $0.y > 600 + 100 }
            }
            #expect(departed != nil, "both squares fell out of the world, and the world paused")
            if let departed { #expect(departed.bodies.allSatisfy { $0.y < 600 + 100 + 400 }, "it paused soon after") }
            #expect(client.waitForScreen { $0.text(row: status).contains("at rest since tick") },
                    "the status line says the world is at rest")
            client.type("q")
            #expect(client.waitForExit() == 0)
            withExtendedLifetime(server) {}
        }
    }
}
