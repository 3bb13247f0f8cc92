import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `contact` messages to subscribers, `notice` messages to the other clients, and the admin gating of the
    /// structural commands (docs/PROTOCOL.md).
    @Suite(.serialized)
    struct EventAndNoticeTests {
        @Test(.timeLimit(.minutes(5))) func aDropOnTheFloorSendsBeganThenEndedWhenFlungUp() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            #expect(try client.ack(#"{"type":"subscribe","id":1,"contacts":true}"#, id: 1)?.first { $0.0 == "contacts" }?.1 == .bool(true))
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":40,"height":40,"x":400,"y":500}"#, id: 2)?.number("body")))
            try client.send(ClientMessage(.step(ticks: 60)))
            let began = try #require(client.nextContact(), "no contact began")
            #expect(began.phase == .began && began.a == body && began.partner == .boundary("bounds"))
            let point = try #require(began.point)
            #expect(abs(point.y - 600) < 2 && abs(point.x - 400) < 21, "at the floor: \(point)")
            _ = try #require(try client.ack(.velocity(body: body, vx: nil, vy: -900, av: nil, add: false), id: 3))
            try client.send(ClientMessage(.step(ticks: 20)))
            let ended = try #require(client.nextContact(), "no contact ended")
            #expect(ended.phase == .ended && ended.a == body && ended.partner == .boundary("bounds") && ended.point == nil)
            #expect(ended.tick > began.tick)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func contactsAreNotSentWithoutASubscription() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":40,"height":40,"x":400,"y":500}"#, id: 1))
            let lines = try client.stepLines(60, id: 2)
            #expect(lines.last?.contains("\"y\":580") == true, "the item landed: \(lines.last ?? "no snapshot")")
            #expect(!lines.contains { $0.contains("\"type\":\"contact\"") })
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func aNoticeReachesTheOtherClientWithTheRightName() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let bob = try server.connect()
            let bobID = try #require(bob.join().welcome?.client)
            let watcher = try server.connect()
            _ = watcher.join()
            _ = try #require(try bob.ack(.hello(name: "bob", token: nil, protocolVersion: nil), id: 1))
            _ = try #require(try bob.ack(.scene(name: "snap"), id: 2))
            let notice = try #require(watcher.nextNotice())
            #expect(notice == Notice(client: bobID, name: "bob", command: "scene", summary: "loaded snap"))
            #expect(bob.nextNotice(timeout: 0.3) == nil, "the sender gets no notice of its own command")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func structuralCommandsNeedTheAdminTokenButInteractionDoesNot() throws {
            let server = try ServerProcess(["--scene", "attachment", "--admin-token", "A"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let rod = try #require(scene.attachments.first?.id)
            let body = try #require(scene.bodies.first?.id)
            let gated = [
                #"{"type":"attach","body":\#(body),"anchor":{"x":1,"y":2}}"#, #"{"type":"detach","attachment":\#(rod)}"#,
                #"{"type":"field","kind":"vortex","x":1,"y":2}"#, #"{"type":"field","field":1,"strength":2}"#,
                #"{"type":"unfield","field":1}"#, #"{"type":"boundary","boundary":"a","points":[[0,0],[1,1]]}"#,
                #"{"type":"bounds","enabled":false}"#, #"{"type":"group","bodies":[1,2]}"#, #"{"type":"ungroup","group":1}"#,
                #"{"type":"pause"}"#, #"{"type":"resume"}"#, #"{"type":"step","ticks":1}"#,
            ]
            for (k, line) in gated.enumerated() {
                let withID = line.replacingOccurrences(of: "{\"type\"", with: "{\"id\":\(k + 10),\"type\"")
                #expect(try client.error(withID, id: .int(k + 10))?.code == .forbidden, "\(line)")
            }
            #expect(try client.ack(.anchor(attachment: rod, x: 300, y: 90), id: 1) != nil)
            #expect(try client.ack(.velocity(body: body, vx: 10, vy: nil, av: nil, add: true), id: 2) != nil)
            // Moving a field is interaction: it is not forbidden (there is no field 1, so it is bad_value).
            #expect(try client.error(#"{"type":"field","id":3,"field":1,"x":5,"y":5}"#, id: .int(3))?.code == .badValue)
            withExtendedLifetime(server) {}
        }
    }
}

extension EndToEnd.EventAndNoticeTests {
    /// At most 256 contact messages per tick; the rest are counted in `dropped` of the next one sent.
    @Test(.timeLimit(.minutes(5))) func contactsAreCappedPerTickAndTheRestCountedAsDropped() throws {
        let server = try ServerProcess(["--scene", "empty", "--held", "--rate", "100000", "--burst", "100000"])
        let client = try server.connect()
        _ = client.join()
        _ = try #require(try client.ack(#"{"type":"subscribe","id":1,"contacts":true}"#, id: 1))
        _ = try #require(try client.ack(.gravity(.magnitude(0)), id: 2))
        // A 20 x 20 grid of 10 pt squares 9 pt apart: every neighbour overlaps, well over 256 contacts at once.
        for row in 0..<20 {
            for col in 0..<20 {
                try client.send(#"{"type":"spawn","shape":"rect","width":10,"height":10,"x":\#(300 + col * 9),"y":\#(200 + row * 9)}"#)
            }
        }
        _ = try #require(try client.currentTick(), "every spawn was applied")
        let lines = try client.stepLines(30, id: 4)
        let contacts = lines.compactMap { line -> ContactReport? in
            if case let .contact(report)? = ServerMessage.decode(line) { return report }
            return nil
        }
        let perTick = Dictionary(grouping: contacts, by: \.tick).mapValues(\.count)
        #expect(perTick.values.max() == 256, "per tick: \(perTick.sorted { $0.key < $1.key }.prefix(5))")
        let dropped = contacts.compactMap(\.dropped)
        #expect(!dropped.isEmpty && dropped.allSatisfy { $0 > 0 }, "the overflow is reported: \(dropped)")
        // The first message of the tick after an overflowing one carries the count.
        let firstTick = try #require(contacts.first?.tick)
        #expect(contacts.first { $0.tick > firstTick }?.dropped != nil)
        withExtendedLifetime(server) {}
    }
}
