import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The page's rooms in a real headless Chromium against a real server, each seen from outside by TCP
    /// observers and `GET /rooms`: `/r/NAME` puts the page in that room (and only there), the picker lists the
    /// rooms that exist and creates one with `join`, and the bar names the room (docs/PROTOCOL.md, Rooms).
    @Suite(.serialized, .timeLimit(.minutes(1)), RequiredTool.chromium.trait)
    struct PageRoomTests {
        /// The `#roomList` buttons as (name, clients), from their "NAME (CLIENTS)" text.
        private func pickerEntries(_ page: PageSession) throws -> [(name: String, clients: Int)] {
            let texts = try #require(try page.evaluate(
                "JSON.stringify([...document.querySelectorAll('#roomList button')].map(b => b.textContent))") as? String)
            let list = try #require(try JSONSerialization.jsonObject(with: Data(texts.utf8)) as? [String])
            return try list.map { text in
                let open = try #require(text.range(of: " (", options: .backwards), "\(text)")
                let count = try #require(Int(text[open.upperBound...].dropLast()), "\(text)")
                return (String(text[..<open.lowerBound]), count)
            }
        }

        @Test func rSlashLabPutsThePageInLabAndItsTapLandsThereOnly() throws {
            _ = try RequiredTool.chromium.require()
            let server = try ServerProcess(["--scene", "push"])
            let page = try PageSession(server: server, path: "/r/lab")
            let http = try #require(server.httpPort)
            #expect(Reliability.eventually(timeout: 10) { page.text("dyn.room") == "lab" })
            // An observer in lab meets the page there: both count two clients; main's observer counts itself.
            let lab = try server.connect()
            _ = lab.join()
            let joined = try lab.joinRoom("lab", id: 1)
            #expect(joined.created == false, "the page created lab, the observer found it")
            let square = try #require(joined.scene?.bodies.first)
            #expect(lab.nextSnapshot(timeout: 5) { $0.clients == 2 } != nil, "lab counts the page and its observer")
            #expect(Reliability.eventually(timeout: 5) { page.text("document.getElementById('clients').textContent") == "2" },
                    "the page shows lab's count: \(page.text("document.getElementById('clients').textContent"))")
            #expect(page.observer.nextSnapshot(timeout: 5)?.clients == 1, "main has only its observer")
            let rooms = try #require(try httpRooms(port: http))
            #expect(rooms.first { $0.name == "lab" }?.clients == 2 && rooms.first { $0.name == "main" }?.clients == 1, "\(rooms)")
            // A tap left of the square pushes lab's square; main's square stays where it is.
            let mainBefore = try #require(page.observer.nextSnapshot(timeout: 5)?.bodies.first { $0.id == square.id })
            let at = try page.screen(200, 150)
            try page.browser.click(x: at.x, y: at.y)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.taps")) as? Int == 1 }, "the tap was acknowledged")
            let pushed = lab.nextSnapshot(timeout: 5) { snapshot in
                guard let b = snapshot.bodies.first(where: { $0.id == square.id }) else { return false }
                return b.x < 399 && b.y < 299
            }
            #expect(pushed != nil, "lab's square moved toward the tap (up and left)")
            // A second of main's ticks after lab's square moved (keep-alives at rest): main's square never moved.
            let mainAfter = page.observer.snapshots(for: 1).compactMap { $0.bodies.first { $0.id == square.id } }
            #expect(!mainAfter.isEmpty && mainAfter.allSatisfy { abs($0.x - mainBefore.x) < 0.001 && abs($0.y - mainBefore.y) < 0.001 },
                    "main's square did not move: \(mainAfter) after \(mainBefore)")
            try page.screenshot("page-room-lab")
        }

        @Test func thePickerListsTheRoomsAndCreatesOneWithJoin() throws {
            _ = try RequiredTool.chromium.require()
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            // A room besides main, with a client of its own.
            let other = try server.connect()
            _ = other.join()
            #expect(try other.joinRoom("alpha", id: 1).created == true)
            let page = try PageSession(server: server, path: "/")
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('status').dataset.rooms") == "supported" })
            let button = try page.center("#room")
            try page.browser.click(x: button.x, y: button.y)
            var shown: [(name: String, clients: Int)] = []
            #expect(Reliability.eventually(timeout: 5) { shown = (try? pickerEntries(page)) ?? []; return shown.count == 2 },
                    "the picker lists: \(shown)")
            let listed = try #require(try httpRooms(port: http))
            #expect(shown.map(\.name) == listed.map(\.name), "the picker's rooms are GET /rooms's: \(shown) vs \(listed)")
            #expect(shown.map(\.clients) == listed.map(\.clients), "with their client counts: \(shown) vs \(listed)")
            #expect(shown.map(\.name) == ["alpha", "main"] && shown.map(\.clients) == [1, 2], "\(shown)")
            #expect(page.text("document.querySelector('#roomList button.current')?.textContent ?? ''").hasPrefix("main ("),
                    "the room the page is in is marked")
            try page.screenshot("page-room-picker")
            // A new room from the form: the page sends join, moves its address and is the room's one client.
            let sentBefore = try #require(try page.evaluate("dyn.sent") as? Int)
            let input = try page.center("#roomInput")
            try page.browser.click(x: input.x, y: input.y)
            try page.type("beta")
            try page.key("Enter", code: "Enter", keyCode: 13, text: "\r")
            #expect(Reliability.eventually(timeout: 10) { page.text("location.pathname") == "/r/beta" },
                    "the address: \(page.text("location.pathname"))")
            #expect(try #require(try page.evaluate("dyn.sent") as? Int) > sentBefore, "the join went out")
            let after = try #require(try page.observer.roomList(id: 2))
            #expect(after.first { $0.name == "beta" }?.clients == 1, "\(after)")
            #expect(after.first { $0.name == "main" }?.clients == 1, "the page left main: \(after)")
            #expect(page.text("dyn.room") == "beta" && page.text("document.getElementById('room').textContent") == "beta")
            #expect(try page.evaluate("document.getElementById('rooms').hidden") as? Bool == true, "the picker closed")
            #expect(page.text("document.getElementById('error').textContent").isEmpty)
            // The page draws beta's world: its own square, counted as one client.
            #expect(Reliability.eventually(timeout: 5) { page.text("document.getElementById('clients').textContent") == "1" })
            withExtendedLifetime(other) {}
        }

        @Test func aPageThatCreatedARoomIsStillItsAdminAfterAReload() throws {
            _ = try RequiredTool.chromium.require()
            // With an admin token, only a room's creator (or its room_token) may change it.
            let server = try ServerProcess(["--scene", "push", "--admin-token", "boss"])
            let page = try PageSession(server: server, path: "/r/lab")
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('status').dataset.admin") == "true" },
                    "the page created lab: admin there")
            let lab = try server.connect()
            _ = lab.join()
            #expect(try lab.joinRoom("lab", id: 1).admin == false, "the observer has no rights in lab")
            try page.browser.call("Page.reload")
            #expect(Reliability.eventually(timeout: 20) {
                page.text("dyn.state") == "open" && page.text("document.getElementById('status').dataset.admin") == "true"
            }, "admin again after the reload: \(page.text("document.getElementById('status').dataset.admin"))")
            // The right is real: the page's spawn reaches lab's observer (a page without it gets forbidden).
            let spawn = try page.center("#spawnBox")
            try page.browser.click(x: spawn.x, y: spawn.y)
            let spawned = lab.waitFor(timeout: 10) { if case let .scene(scene) = $0 { scene.bodies.count == 2 } else { false } }
            #expect(spawned != nil, "lab's observer sees the page's box; the page says: \(page.text("document.getElementById('error').textContent"))")
            #expect(page.text("document.getElementById('error').textContent").isEmpty)
        }

        @Test func aRefusedRoomLeavesThePageInMainSayingWhyAndAJoinKeepsTheToken() throws {
            _ = try RequiredTool.chromium.require()
            // main is the one room --max-rooms 1 allows: /r/lab cannot be loaded.
            let server = try ServerProcess(["--scene", "push", "--max-rooms", "1", "--token", "s3cret"])
            let page = try PageSession(server: server, path: "/r/lab?token=s3cret", token: "s3cret")
            #expect(Reliability.eventually(timeout: 10) {
                page.text("document.getElementById('error').textContent") == "no room for another room on this server"
            }, "the refusal in words: \(page.text("document.getElementById('error').textContent"))")
            #expect(page.text("dyn.room") == "main" && page.text("document.getElementById('room').textContent") == "main")
            #expect(page.text("location.pathname + location.search") == "/?token=s3cret", "the address says where the page is")
            #expect(try page.observer.roomList(id: 1)?.map(\.name) == ["main"], "lab was not created")
            #expect(page.observer.nextSnapshot(timeout: 5) { $0.clients == 2 } != nil, "the page is in main with the observer")
            // A join from the picker moves the address and keeps ?token= (a reload must still get in).
            let button = try page.center("#room")
            try page.browser.click(x: button.x, y: button.y)
            _ = try page.evaluate("document.getElementById('roomInput').value = 'main'; document.getElementById('roomForm').requestSubmit()")
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('result').textContent") == "you are in room main" })
            #expect(page.text("location.pathname + location.search") == "/?token=s3cret")
            try page.browser.call("Page.reload")
            #expect(Reliability.eventually(timeout: 20) { page.text("dyn.state") == "open" && page.text("dyn.scene && dyn.scene.name") == "push" },
                    "the reloaded page got in with its token: \(page.text("document.getElementById('error').textContent"))")
        }

        @Test func aRefusedRoomWithoutATokenLeavesThePageInMainToo() throws {
            _ = try RequiredTool.chromium.require()
            // Without --token the refusal is the welcome's main and an error without id (docs/PROTOCOL.md, Over HTTP).
            let page = try PageSession(server: try ServerProcess(["--scene", "push", "--max-rooms", "1"]), path: "/r/lab")
            #expect(Reliability.eventually(timeout: 10) {
                page.text("document.getElementById('error').textContent") == "no room for another room on this server"
            }, "the refusal in words: \(page.text("document.getElementById('error').textContent"))")
            #expect(page.text("dyn.room") == "main" && page.text("location.pathname") == "/")
            #expect(page.text("document.getElementById('room').textContent") == "main")
        }

        @Test func onATokenServerRSlashLabJoinsLabAtTheTokenHello() throws {
            _ = try RequiredTool.chromium.require()
            let server = try ServerProcess(["--scene", "push", "--token", "s3cret"])
            let page = try PageSession(server: server, path: "/r/lab?token=s3cret", token: "s3cret")
            #expect(Reliability.eventually(timeout: 10) { page.text("dyn.room") == "lab" }, "the page is in \(page.text("dyn.room"))")
            #expect(page.text("location.pathname + location.search") == "/r/lab?token=s3cret")
            #expect(page.text("document.getElementById('room').textContent") == "lab")
            let rooms = try #require(try page.observer.roomList(id: 1))
            #expect(rooms.first { $0.name == "lab" }?.clients == 1 && rooms.first { $0.name == "main" }?.clients == 1, "\(rooms)")
        }

        @Test func theBarNamesTheRoom() throws {
            _ = try RequiredTool.chromium.require()
            let page = try PageSession(server: try ServerProcess(["--scene", "push"]), path: "/r/studio.2")
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('room').textContent") == "studio.2" },
                    "the bar says: \(page.text("document.getElementById('room').textContent"))")
            #expect(page.text("document.title") == "dyn · studio.2")
            #expect(page.text("document.getElementById('status').dataset.room") == "studio.2")
            let box = try page.rect("#roomBox")
            let bar = try page.rect("#bar")
            #expect((box["width"] ?? 0) > 0 && (box["height"] ?? 0) > 0, "the room is visible: \(box)")
            #expect((box["top"] ?? -1) >= (bar["top"] ?? 0) && (box["bottom"] ?? .infinity) <= (bar["bottom"] ?? 0), "in the bar: \(box) \(bar)")
            try page.screenshot("page-room-bar")
        }
    }
}
