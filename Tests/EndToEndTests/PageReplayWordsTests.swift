import Foundation
import Testing

extension EndToEnd {
    /// The page in the room a served replay plays into (docs/PROTOCOL.md, Replay), in a real headless
    /// Chromium: a refused command says `read-only: replay`, never the admin-token text, and the page shows
    /// the replay finish (its notice, and `held` after it).
    @Suite(.serialized, .timeLimit(.minutes(2))) struct PageReplayWordsTests {
        @Test(RequiredTool.chromium.trait) func theReplayRoomSaysReadOnlyReplayAndThatItFinished() throws {
            let dir = try ScratchDirectory()
            let live = try RecordReplayTests.recordSession(into: dir)
            // A quarter of real time: the replay still plays when the browser has started and joined it.
            let server = try ServerProcess([], leading: ["replay", dir.path + "/main.ndjson", "--serve", "--speed", "0.25"])
            let http = try #require(server.httpPort)
            let browser = try HeadlessChromium(binary: try RequiredTool.chromium.require(), url: "http://127.0.0.1:\(http)/r/replay",
                                               width: 1280, height: 800)
            func text(_ expression: String) -> String { ((try? browser.evaluate(expression)) as? String) ?? "" }
            #expect(Reliability.eventually(timeout: 20) { text("dyn.state + ' ' + dyn.room") == "open replay" })
            _ = try browser.evaluate("document.getElementById('spawnBox').click(), 1")
            let error = "document.getElementById('error').textContent"
            #expect(Reliability.eventually(timeout: 10) { text(error).contains("read-only: replay") }, "error: \(text(error))")
            #expect(!text("document.body.textContent").contains("admin token"), "no token helps in a replay")
            let notices = "document.getElementById('notices').textContent"
            #expect(Reliability.eventually(timeout: 60) { text(notices).contains("replay finished at tick \(live.tick)") },
                    "the page is told the replay finished: \(text(notices))")
            let motion = "document.getElementById('motion').textContent"
            #expect(Reliability.eventually(timeout: 10) { text(motion).hasPrefix("held") }, "motion: \(text(motion))")
            withExtendedLifetime(server) {}
        }
    }
}
