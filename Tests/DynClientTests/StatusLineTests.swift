import Foundation
import NetProtocol
import Testing
@testable import dynclient

@Suite struct StatusLineTests {
    private var connected: StatusInfo {
        var info = StatusInfo(address: "127.0.0.1:7700")
        info.connection = .connected
        info.scene = "snap"
        info.tick = 1234
        info.snapshotRate = 30
        info.pingMs = 1.26
        info.bufferMs = 45.4
        info.items = 12
        info.clients = 3
        return info
    }

    @Test(.timeLimit(.minutes(3))) func connectedLineListsEveryFieldInOrderOfImportance() {
        var info = connected
        info.selection = "#4 rect 100x100 e0.5"
        let text = StatusLine.text(info, width: 160)
        #expect(text == StatusLine.fit(" connected | scene snap | running | tick 1234 | 3 clients | sel #4 rect 100x100 e0.5 | ping 1.3 ms | buf 45 ms | 30 snap/s | 12 items", width: 160))
        #expect(text.count == 160)
    }

    @Test(.timeLimit(.minutes(3))) func eightyColumnsKeepConnectionSceneStateTickClientsAndSelection() {
        var info = connected
        info.motion = .held
        info.selection = "#4 rect 100x100"
        #expect(StatusLine.text(info, width: 80) ==
            " connected | scene snap | held | tick 1234 | 3 clients | sel #4 rect 100x100    ")
    }

    @Test(.timeLimit(.minutes(3))) func theConnectionStateAndSceneSurviveANarrowTerminal() {
        #expect(StatusLine.text(connected, width: 30) == " connected | scene snap       ")
        #expect(StatusLine.text(connected, width: 8) == " connect")
        // A field that does not fit whole goes whole: no word is cut in half.
        var selected = connected
        selected.selection = "#12 ellipse 50x50 e0.9 f0.25"
        #expect(StatusLine.text(selected, width: 70) ==
            StatusLine.fit(" connected | scene snap | running | tick 1234 | 3 clients", width: 70))
    }

    /// At 80 and 120 columns (and every width between 20 and 200), every field shown is whole: the line is
    /// the first fields of the full line, joined, never a piece of one.
    @Test(.timeLimit(.minutes(3))) func everyWidthShowsWholeFieldsOnly() {
        var info = connected
        info.room = "lab"
        info.readOnly = "admin token needed"
        info.selection = "#12 ellipse 50x50 e0.9 f0.25 anchored"
        info.bufferMs = 45
        info.snapshotRate = 31
        info.items = 1
        let full = StatusLine.text(info, width: 1000).trimmingCharacters(in: .whitespaces)
        #expect(full.hasSuffix("| 31 snap/s | 1 item"), "one item, singular: \(full)")
        let fields = full.components(separatedBy: " | ")
        for width in 20...200 {
            let shown = StatusLine.text(info, width: width)
            #expect(shown.unicodeScalars.count == width)
            let kept = shown.trimmingCharacters(in: .whitespaces).components(separatedBy: " | ")
            #expect(Array(fields.prefix(kept.count)) == kept, "width \(width): \(shown)")
        }
        #expect(StatusLine.text(info, width: 80) ==
            StatusLine.fit(" connected | room lab | scene snap | read-only: admin token needed | running", width: 80))
        #expect(StatusLine.text(info, width: 120) == StatusLine.fit(
            " connected | room lab | scene snap | read-only: admin token needed | running | tick 1234 | 3 clients", width: 120))
    }

    @Test(.timeLimit(.minutes(3))) func reconnectingSaysWhenAndWhy() {
        var info = connected
        info.connection = .reconnecting(inMs: 2250, attempt: 3, reason: "server gone")
        #expect(StatusLine.text(info, width: 80) ==
            StatusLine.fit(" reconnecting in 2.3 s | scene snap | server gone | attempt 3 | no selection", width: 80))
    }

    @Test(.timeLimit(.minutes(3))) func aRefusedAdminCommandMakesTheLineSayReadOnly() {
        var info = connected
        info.readOnly = "admin token needed"
        #expect(StatusLine.text(info, width: 80).hasPrefix(" connected | scene snap | read-only: admin token needed | running |"))
        info.readOnly = "replay"
        #expect(StatusLine.text(info, width: 80).hasPrefix(" connected | scene snap | read-only: replay | running |"))
    }

    @Test(.timeLimit(.minutes(3))) func unauthorizedSaysWhatToDo() {
        var info = StatusInfo(address: "127.0.0.1:7700")
        info.connection = .unauthorized
        #expect(StatusLine.text(info, width: 80).hasPrefix(" unauthorized: give --token | scene - |"))
    }

    @Test(.timeLimit(.minutes(3))) func selectionDescribesShapeSizeAndNonDefaultProperties() {
        let plain = BodyInfo(id: 3, shape: .ellipse, width: 50, height: 40, color: "#ffffff")
        #expect(StatusLine.describe(plain) == "#3 ellipse 50x40")
        let bouncy = BodyInfo(id: 4, shape: .rect, width: 100, height: 100, elasticity: 0.9, friction: 0.25, density: 2,
                              anchored: true, color: "#ffffff")
        #expect(StatusLine.describe(bouncy) == "#4 rect 100x100 e0.9 f0.25 d2 anchored")
        #expect(StatusLine.compact(0.5) == "0.5")
        #expect(StatusLine.compact(-3) == "-3")
        #expect(StatusLine.compact(12.345) == "12.35")
    }

    @Test(.timeLimit(.minutes(3))) func fixedPointFormatting() {
        #expect(StatusLine.format(12.345, decimals: 1) == "12.3")
        #expect(StatusLine.format(0.05, decimals: 2) == "0.05")
        #expect(StatusLine.format(-2.5, decimals: 0) == "-3")
        #expect(StatusLine.format(-0.01, decimals: 1) == "0.0")
        #expect(StatusLine.format(.nan, decimals: 1) == "-")
    }
}
