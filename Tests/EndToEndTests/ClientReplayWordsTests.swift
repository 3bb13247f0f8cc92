import Foundation
import Testing

extension EndToEnd {
    /// `dynclient` in the room a served replay plays into (docs/PROTOCOL.md, Replay): a refused command says
    /// `read-only: replay` (no token helps), never the admin-token text, and the watcher sees the replay
    /// finish (its notice, and `held` instead of `running`).
    @Suite(.serialized, .timeLimit(.minutes(2))) struct ClientReplayWordsTests {
        @Test func theReplayRoomSaysReadOnlyReplayAndThatItFinished() throws {
            let dir = try ScratchDirectory()
            let live = try RecordReplayTests.recordSession(into: dir)
            let server = try ServerProcess(["--no-http"], leading: ["replay", dir.path + "/main.ndjson", "--serve", "--speed", "4"])
            let client = try PseudoTerminalClient(arguments: ["--port", String(server.port), "--room", "replay", "--name", "watcher"],
                                                  columns: 120, rows: ClientSession.rows)
            let status = ClientSession.rows - 1
            #expect(client.waitForScreen { $0.text(row: status).contains("room replay") }, "\(client.screen.text(row: status))")
            client.type("n")
            #expect(client.waitForScreen { $0.text(row: status).contains("read-only: replay") }, "\(client.screen.text(row: status))")
            #expect(client.waitForScreen { $0.contains("plays a recording") })
            #expect(!client.screen.contains("admin token"), "no token helps in a replay")
            #expect(client.waitForScreen(timeout: 60) { $0.contains("replay finished at tick \(live.tick)") },
                    "the watcher is told the replay finished")
            #expect(client.waitForScreen { $0.text(row: status).contains("| held |") }, "\(client.screen.text(row: status))")
            client.type("q")
            #expect(client.waitForExit() == 0)
            withExtendedLifetime(server) {}
        }
    }
}
