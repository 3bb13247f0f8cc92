import Testing
@testable import dynclient

@Suite struct StatusLineTests {
    private var connected: StatusInfo {
        var info = StatusInfo(address: "127.0.0.1:7700")
        info.connection = .connected
        info.clientID = 7
        info.tick = 1234
        info.snapshotRate = 30
        info.pingMs = 1.26
        info.items = 12
        info.clients = 3
        return info
    }

    @Test func connectedLineListsEveryFieldInOrder() {
        let text = StatusLine.text(connected, width: 120)
        #expect(text == StatusLine.fit(" dyn 127.0.0.1:7700 | client 7 | tick 1234 | 30 snap/s | ping 1.3 ms | items 12 | clients 3 | running | ? help ", width: 120))
        #expect(text.count == 120)
    }

    @Test func pausedSelectionAndMessage() {
        var info = connected
        info.paused = true
        info.selected = 4
        info.message = "error no_body: nothing there"
        let text = StatusLine.text(info, width: 200)
        #expect(text.contains("| clients 3 | paused | selected #4 | error no_body: nothing there   "))
        #expect(text.count == 200)
    }

    @Test func narrowLinesDropTrailingFieldsButKeepTheMessage() {
        var info = connected
        info.message = "error no_body: nothing there"
        #expect(StatusLine.text(info, width: 80) ==
            " dyn 127.0.0.1:7700 | client 7 | tick 1234 | error no_body: nothing there       ")
        #expect(StatusLine.text(info, width: 20) == " error no_body: noth")
    }

    @Test func reconnectingSaysWhyAndWhen() {
        var info = StatusInfo(address: "127.0.0.1:7700")
        info.connection = .reconnecting(inMs: 1250, attempt: 3, reason: "server gone")
        #expect(StatusLine.text(info, width: 100).hasPrefix(" dyn 127.0.0.1:7700 | server gone - reconnecting in 1.3 s (attempt 3) | ? help"))
    }

    @Test func fixedPointFormatting() {
        #expect(StatusLine.format(12.345, decimals: 1) == "12.3")
        #expect(StatusLine.format(0.05, decimals: 2) == "0.05")
        #expect(StatusLine.format(-2.5, decimals: 0) == "-3")
        #expect(StatusLine.format(-0.01, decimals: 1) == "0.0")
        #expect(StatusLine.format(.nan, decimals: 1) == "-")
    }
}
