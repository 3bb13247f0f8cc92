import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dynclient` run interactively on a pseudo-terminal against a real `dynserver`.
    @Suite(.serialized) struct ClientPTYTests {
        static let enterModes = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h".utf8)
        static let leaveModes = Array("\u{1B}[0m\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l".utf8)

        /// A server with one 100 x 100 box at (400, 300), no gravity, watched by a control connection.
        private func worldWithABox() throws -> (ServerProcess, LineClient, Int) {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            #expect(try control.ack(.gravity(.magnitude(0)), id: 1) != nil)
            let spawned = try #require(try control.ack(.spawn(shape: .rect, width: 100, height: 100, x: 400, y: 300,
                                                              angle: nil, vx: nil, vy: nil, patch: PropertyPatch()), id: 2))
            let body = try #require(spawned.first { $0.0 == "body" }?.1.number.map { Int($0) })
            return (server, control, body)
        }

        /// Starts the client on a 100 x 34 terminal (world area 100 x 30) and waits for its first connected frame.
        private func startClient(port: UInt16) throws -> PseudoTerminalClient {
            let client = try PseudoTerminalClient(arguments: ["--port", String(port), "--name", "pty"], columns: 100, rows: 34)
            let connected = client.read { $0.contains(bytes: Array(" connected | scene ".utf8)) }
            #expect(connected, "no connected status line in: \(String(decoding: client.output, as: UTF8.self).suffix(300))")
            #expect(client.output.starts(with: Self.enterModes))
            return client
        }

        @Test(.timeLimit(.minutes(5))) func sgrClickTapsTheItemAndQRestoresTheTerminal() throws {
            let (server, control, body) = try worldWithABox()
            let client = try startClient(port: server.port)
            // 100 x 30 world area: 0.2 dots per point, 20 dots margin; cell (54, 16) is world (445, 330),
            // inside the box, so the tap pushes it right and down (magnitude 54 / 200).
            client.type("\u{1B}[<0;55;17M\u{1B}[<0;55;17m")
            let moved = control.nextSnapshot(timeout: 5) { snapshot in
                guard let state = snapshot.bodies.first(where: { $0.id == body }) else { return false }
                return state.x > 403 && state.y > 302
            }
            #expect(moved != nil)
            client.type("q")
            #expect(client.waitForExit() == 0)
            client.readToEnd()
            #expect(client.output.ends(with: Self.leaveModes))
        }

        @Test(.timeLimit(.minutes(5))) func sigtermAndCtrlCAlsoRestoreTheTerminal() throws {
            let (server, _, _) = try worldWithABox()
            let first = try startClient(port: server.port)
            kill(first.process.processIdentifier, SIGTERM)
            #expect(first.waitForExit() == 0)
            first.readToEnd()
            #expect(first.output.ends(with: Self.leaveModes))
            let second = try startClient(port: server.port)
            second.type("\u{03}")
            #expect(second.waitForExit() == 0)
            second.readToEnd()
            #expect(second.output.ends(with: Self.leaveModes))
        }

        @Test(.timeLimit(.minutes(5))) func keyboardDragMovesTheItemAndEveryoneSeesTheDrag() throws {
            let (server, control, body) = try worldWithABox()
            let client = try startClient(port: server.port)
            // The cursor starts at the centre (400, 300), on the box: d grabs it, five cells right drags it.
            client.type("d")
            client.type(String(repeating: "\u{1B}[C", count: 5))
            let dragged = control.nextSnapshot(timeout: 5) { snapshot in
                snapshot.drags.contains { $0.body == body && $0.name == "pty" && abs($0.x - 450) < 0.001 }
            }
            #expect(dragged != nil)
            let followed = control.nextSnapshot(timeout: 5) { snapshot in
                (snapshot.bodies.first { $0.id == body }?.x ?? 0) > 430
            }
            #expect(followed != nil)
            client.type("d")
            let released = control.nextSnapshot(timeout: 5) { $0.drags.isEmpty }
            #expect(released != nil)
            client.type("q")
            #expect(client.waitForExit() == 0)
        }
    }
}
