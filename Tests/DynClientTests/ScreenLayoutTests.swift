import NetProtocol
import Testing
@testable import dynclient

@Suite struct ScreenLayoutTests {
    @Test(.timeLimit(.minutes(1))) func theWorldKeepsItsRowsWhateverTheInfoRowsShow() {
        let layout = ScreenLayout(rows: 34)
        #expect(layout.worldRows == 30 && layout.infoTop == 30 && layout.messageRow == 32 && layout.statusRow == 33)
        // A terminal too short for info rows gives every row but the bars to the world.
        #expect(ScreenLayout(rows: 10).worldRows == 8 && ScreenLayout(rows: 10).infoRows == 0)
    }

    @Test(.timeLimit(.minutes(1))) func settingsLeadTheFirstRowNoticesTakeTheOthersAndTheCaptionFillsTheRest() {
        let caption = "A square snapped to the centre with damping 0.5: it springs in."
        let alone = InfoRows.lines(settings: "gravity off | collide everything", caption: caption, notices: [], rows: 2, columns: 40)
        #expect(alone.map(\.text) == ["gravity off | collide everything | A", "square snapped to the (? for the rest)"])
        #expect(alone[0].settings == 32 && alone[1].settings == 0)
        let withNotice = InfoRows.lines(settings: "gravity off | collide everything", caption: caption, notices: ["bob loaded snap"],
                                        rows: 2, columns: 40)
        #expect(withNotice.map(\.text) == ["gravity off | collide everything | A (?)", "> bob loaded snap"])
        #expect(withNotice.map(\.notice) == [false, true])
        // At 80 and 120 columns no word of a long caption is cut: every row is whole words of it.
        let long = "Two squares landing on a boundary line. Reload them (r), then set collision to boundaries "
            + "(c twice: items, then boundaries; or the page's collision menu) while they fall: they pass through each other."
        for columns in [80, 120] {
            let rows = InfoRows.lines(settings: "gravity 1 down | collide everything", caption: long, notices: [], rows: 2, columns: columns)
            let words = Set(("gravity 1 down | collide everything | " + long).split(separator: " ").map(String.init) + ["(?", "for", "the", "rest)"])
            for row in rows {
                #expect(row.text.count <= columns && row.text.split(separator: " ").allSatisfy { words.contains(String($0)) }, "\(columns): \(row.text)")
            }
            #expect(rows.last?.text.hasSuffix("(? for the rest)") == true || rows.map(\.text).joined(separator: " ").hasSuffix("each other."))
        }
        // However many notices, the first row keeps the settings.
        let busy = InfoRows.lines(settings: "gravity 1 down | collide items", caption: nil, notices: ["a", "b", "c"], rows: 2, columns: 40)
        #expect(busy.map(\.text) == ["gravity 1 down | collide items", "> c"])
    }

    @Test(.timeLimit(.minutes(1))) func gravityIsSaidInWords() {
        #expect(StatusLine.describe(GravityInfo(dx: 0, dy: 1, magnitude: 1)) == "gravity 1 down")
        #expect(StatusLine.describe(GravityInfo(dx: -0.5, dy: 6e-17, magnitude: 0.5)) == "gravity 0.5 left")
        #expect(StatusLine.describe(GravityInfo(dx: 0, dy: 1, magnitude: 0)) == "gravity off")
        #expect(StatusLine.describe(GravityInfo(dx: 1, dy: 1, magnitude: 1.41)) == "gravity 1.41 at 45deg")
    }

    @Test(.timeLimit(.minutes(1))) func atRestShowsTheTickItCameToRestAt() {
        var info = StatusInfo(address: "127.0.0.1:7700", connection: .connected)
        info.scene = "empty"
        info.motion = .atRest
        info.tick = 1300
        info.restTick = 1200
        info.room = "lab"
        #expect(StatusLine.text(info, width: 120).hasPrefix(" connected | room lab | scene empty | at rest since tick 1200 | 0 clients"))
        info.room = "main"
        #expect(StatusLine.text(info, width: 120).hasPrefix(" connected | scene empty | at rest since tick 1200"), "main is not named")
    }

    @Test(.timeLimit(.minutes(1))) func theHelpNamesThePageOfTheRoom() {
        #expect(HelpText.pageURL(host: "127.0.0.1", httpPort: 7701) == "http://127.0.0.1:7701/")
        #expect(HelpText.pageURL(host: "::1", httpPort: 9000, room: "lab") == "http://[::1]:9000/r/lab")
        #expect(HelpText.pageURL(host: "127.0.0.1", httpPort: nil) == nil, "no HTTP listener, no page to name")
        #expect(HelpText.page(1, columns: 80, pageURL: "http://127.0.0.1:7701/")[1].hasPrefix("in a browser: http://127.0.0.1:7701/"))
    }
}
