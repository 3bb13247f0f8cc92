import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dynclient`'s own drag over a slow link (a loopback proxy, 150 ms round trip, as `dynbench link
    /// --delay-ms 75`): the dragged box itself, not only the drag line, is drawn under the pointer in the
    /// first frame after the motion (docs/ARCHITECTURE.md, "The terminal client").
    @Suite(.serialized, .timeLimit(.minutes(1))) struct ClientDragEchoTests {
        @Test func theDraggedBoxIsUnderThePointerInTheNextFrame() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            _ = try ClientSession.box(control)
            let proxy = try ClientDelayProxy(serverPort: server.port, oneWayMs: 75, jitterMs: 0)
            let client = try PseudoTerminalClient(arguments: ["--port", String(proxy.port), "--name", "far"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            #expect(client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene empty |") })
            var before: Int?
            #expect(client.waitForScreen { screen in
                before = screen.leftmostDot(rows: 12..<18, columns: 11..<89)
                return before != nil
            })
            // The box's left edge, in dot columns, per frame from now on.
            var edges: [Int] = []
            client.screen.onFrame = { screen in edges.append(screen.leftmostDot(rows: 12..<18, columns: 11..<89) ?? -1) }
            client.type(ClientSession.mouse("press", column: 50, row: 15))
            #expect(client.waitForScreen { _ in !edges.isEmpty })
            let framesBefore = edges.count
            client.type(ClientSession.mouse("motion", column: 60, row: 15))
            #expect(client.waitForScreen { _ in edges.count > framesBefore })
            // 10 cells right (200 pt) is 20 dot columns, two per cell; the server's own pose, a round trip
            // away, has not moved yet, so without the echo the edge would stay put.
            let moved = edges[framesBefore] - (before ?? 0)
            print("drag echo: the box's left edge moved \(moved) dot columns in the first frame after the motion (150 ms round trip)")
            #expect(moved >= 19 && moved <= 21, "first frame after the motion: edge at \(edges[framesBefore]), was \(before ?? -1)")
            client.type(ClientSession.mouse("release", column: 60, row: 15))
            client.type("q")
            #expect(client.waitForExit() == 0)
            withExtendedLifetime((server, proxy)) {}
        }
    }
}
