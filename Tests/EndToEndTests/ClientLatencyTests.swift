import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dynclient` over a slow, jittery link (a loopback proxy: 100 ms round trip, each way 50 ± 10 ms):
    /// motion stays smooth and the user's own drag line answers the pointer at once.
    @Suite(.serialized) struct ClientLatencyTests {
        /// A box moving right at a steady 100 pt/s in a world without gravity; returns the server, the
        /// control connection and the box id.
        private func movingBox() throws -> (ServerProcess, LineClient, Int) {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            let body = try ClientSession.box(control)
            #expect(try control.ack(.velocity(body: body, vx: 100, vy: 0, av: nil, add: false), id: 903) != nil)
            return (server, control, body)
        }

        @Test(.timeLimit(.minutes(5))) func motionNeverJumpsBackOnAJitteryLink() throws {
            let (server, _, _) = try movingBox()
            let proxy = try ClientDelayProxy(serverPort: server.port, oneWayMs: 50, jitterMs: 10)
            let client = try PseudoTerminalClient(arguments: ["--port", String(proxy.port), "--name", "far"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            // The box (rows 12...17 of the 100 x 34 terminal) as the leftmost braille dot column, per frame.
            var positions: [Int] = []
            client.screen.onFrame = { screen in
                if let x = screen.leftmostDot(rows: 12..<18, columns: 11..<89) { positions.append(x) }
            }
            // Three seconds of motion: 300 pt, 60 dot columns.
            let moved = client.waitForScreen(timeout: 20) { _ in
                (positions.last ?? 0) - (positions.first ?? 0) >= 55
            }
            #expect(moved, "the box did not move across the screen: \(positions.suffix(20))")
            let backwards = zip(positions, positions.dropFirst()).filter { $1 < $0 }
            #expect(backwards.isEmpty, "frames where the box jumped back: \(backwards)")
            let status = client.screen.text(row: ClientSession.rows - 1)
            print("latency: \(positions.count) frames with the box, \(Set(positions).count) positions; status:\(status)")
            // The buffer grew past one snapshot interval to cover the jitter.
            let buffer = status.split(separator: "|").first { $0.contains("buf ") }
            #expect(buffer != nil, "\(status)")
            client.type("q")
            #expect(client.waitForExit() == 0)
        }

        @Test(.timeLimit(.minutes(5))) func ownDragLineFollowsThePointerOnTheNextFrame() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            _ = try ClientSession.box(control)
            let proxy = try ClientDelayProxy(serverPort: server.port, oneWayMs: 50, jitterMs: 10)
            let client = try PseudoTerminalClient(arguments: ["--port", String(proxy.port), "--name", "far"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            #expect(client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene empty |") })
            #expect(client.waitForScreen { $0.leftmostDot(rows: 12..<18, columns: 11..<89) != nil })
            // Row 15 of each frame from now on.
            var rows: [String] = []
            client.screen.onFrame = { screen in rows.append(screen.text(row: 15)) }
            client.type(ClientSession.mouse("press", column: 50, row: 15))
            #expect(client.waitForScreen { _ in !rows.isEmpty })
            let before = rows.count
            let typed = Date()
            client.type(ClientSession.mouse("motion", column: 60, row: 15))
            #expect(client.waitForScreen { _ in rows.count > before })
            let answered = Date().timeIntervalSince(typed) * 1000
            // The first frame after the motion already has the line from the grab point (405, 310) to the
            // pointer (605, 310): cells 56...59 of row 15, right of the box, hold its dots.
            let first = Array(rows[before].unicodeScalars)
            let line = (56...59).allSatisfy { (0x2801...0x28FF).contains(first[$0].value) }
            #expect(line, "first frame after the motion: \(rows[before])")
            print("latency: own drag line drawn \(Int(answered)) ms after the motion (round trip 100 ms)")
            client.type(ClientSession.mouse("release", column: 60, row: 15))
            client.type("q")
            #expect(client.waitForExit() == 0)
        }
    }
}
