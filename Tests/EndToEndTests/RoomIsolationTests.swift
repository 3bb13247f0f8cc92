import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Isolation (docs/PROTOCOL.md, Rooms): whatever happens in one room (scene, snapshots, frames, notices,
    /// contacts, drags, pause and step) never reaches the clients of another, in both directions.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RoomIsolationTests {
        /// Everything a client received that could only have come from another room's activity.
        private func leaks(_ messages: [ServerMessage]) -> [String] {
            messages.compactMap { message in
                switch message {
                case .scene(let scene): return "scene \(scene.name)"
                case .snapshot(let snapshot): return "snapshot tick \(snapshot.tick) drags \(snapshot.drags.count)"
                case .frame(let frame): return "frame tick \(frame.tick)"
                case .notice(let notice): return "notice \(notice.summary)"
                case .contact(let contact): return "contact tick \(contact.tick)"
                default: return nil
                }
            }
        }

        /// A held server with `main` (one client, full snapshots and contacts) and `lab` (another, compact).
        /// `roomClient` creates `lab`; both subscribe to contacts; each room has a box resting on its floor.
        private func twoRooms() throws -> (ServerProcess, main: LineClient, lab: LineClient, mainBox: Int, labBox: Int) {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let mainClient = try server.connect()
            _ = mainClient.join()
            let labClient = try server.connect()
            _ = labClient.join()
            _ = try #require(try labClient.joinRoom("lab", #""scene":"empty""#, id: 1).ack)
            for (client, id) in [(mainClient, 10), (labClient, 20)] {
                #expect(try client.subscribe(#""contacts":true"#, id: id) != nil)
            }
            let mainBox = Int(try #require(try mainClient.ack(#"{"type":"spawn","id":11,"shape":"rect","width":40,"height":40,"x":300,"y":560}"#, id: 11)?.number("body")))
            let labBox = Int(try #require(try labClient.ack(#"{"type":"spawn","id":21,"shape":"rect","width":40,"height":40,"x":500,"y":560}"#, id: 21)?.number("body")))
            // Drain what each room's own spawn sent (its notices go to nobody else: checked below).
            _ = try mainClient.messagesUntilPong(id: 12)
            _ = try labClient.messagesUntilPong(id: 22)
            return (server, mainClient, labClient, mainBox, labBox)
        }

        @Test func labActivityNeverReachesMain() throws {
            let (server, mainClient, labClient, _, labBox) = try twoRooms()
            let watcher = try server.connect()
            _ = watcher.join()
            #expect(try watcher.subscribe(#""snapshots":"compact","contacts":true"#, id: 1) != nil)
            _ = try watcher.messagesUntilPong(id: 2)
            // Structure, steps with contacts, a drag, and a held step: each makes lab's clients hear of it.
            #expect(try labClient.ack(#"{"type":"gravity","id":30,"magnitude":2}"#, id: 30) != nil)
            let stepped = try labClient.stepLines(60, id: 31)
            #expect(stepped.contains { $0.contains(#""type":"contact""#) }, "lab's box landed: lab hears its contacts")
            #expect(try labClient.ack(.drag(phase: .begin, x: 500, y: 580, body: labBox), id: 32) != nil)
            let dragged = try #require(try labClient.step(1, id: 33))
            #expect(dragged.drags.count == 1, "lab's own snapshot shows its drag")
            #expect(try labClient.ack(.scene(name: "snap"), id: 34) != nil)
            _ = try labClient.step(5, id: 35)
            for client in [mainClient, watcher] {
                let seen = leaks(try client.messagesUntilPong(id: 99))
                #expect(seen.isEmpty, "main heard lab: \(seen)")
            }
            // And main's own world is as it was: no step taken, its tick still 0.
            #expect(try mainClient.currentTick() == 0)
            withExtendedLifetime(server) {}
        }

        @Test func mainActivityNeverReachesLab() throws {
            let (server, mainClient, labClient, mainBox, _) = try twoRooms()
            let labWatcher = try server.connect()
            _ = labWatcher.join()
            _ = try #require(try labWatcher.joinRoom("lab", id: 1).ack)
            #expect(try labWatcher.subscribe(#""snapshots":"compact","contacts":true"#, id: 2) != nil)
            _ = try labWatcher.messagesUntilPong(id: 3)
            #expect(try mainClient.ack(#"{"type":"gravity","id":40,"magnitude":2}"#, id: 40) != nil)
            let stepped = try mainClient.stepLines(60, id: 41)
            #expect(stepped.contains { $0.contains(#""type":"contact""#) }, "main's box landed: main hears its contacts")
            #expect(try mainClient.ack(.drag(phase: .begin, x: 300, y: 580, body: mainBox), id: 42) != nil)
            #expect(try mainClient.step(1, id: 43)?.drags.count == 1)
            #expect(try mainClient.ack(.scene(name: "snap"), id: 44) != nil)
            #expect(try mainClient.ack(#"{"type":"resume","id":45}"#, id: 45) != nil)
            _ = try #require(mainClient.nextSnapshot(timeout: 5) { !$0.held }, "main runs now")
            for client in [labClient, labWatcher] {
                let seen = leaks(try client.messagesUntilPong(id: 99))
                #expect(seen.isEmpty, "lab heard main: \(seen)")
            }
            #expect(try labClient.currentTick() == 0, "lab is still held at tick 0")
            withExtendedLifetime(server) {}
        }

        @Test func aNoticeStaysInItsRoom() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let alice = try server.connect()
            _ = alice.join()
            let bob = try server.connect()
            _ = bob.join()
            let carol = try server.connect()
            _ = carol.join()
            _ = try #require(try alice.joinRoom("lab", id: 1).ack)
            _ = try #require(try bob.joinRoom("lab", id: 1).ack)
            #expect(try alice.ack(.scene(name: "snap"), id: 2) != nil)
            let notice = try #require(bob.nextNotice(), "the other member of lab hears it")
            #expect(notice.summary == "loaded snap")
            #expect(try carol.linesBeforePong().allSatisfy { RawLines.type($0) != "notice" }, "main does not")
            withExtendedLifetime(server) {}
        }

        @Test func leavingARoomEndsTheDragThere() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let alice = try server.connect()
            _ = alice.join()
            let bob = try server.connect()
            _ = bob.join()
            _ = try #require(try alice.joinRoom("lab", id: 1).ack)
            _ = try #require(try bob.joinRoom("lab", id: 1).ack)
            let box = Int(try #require(try alice.ack(#"{"type":"spawn","id":2,"shape":"rect","width":40,"height":40,"x":400,"y":300}"#, id: 2)?.number("body")))
            #expect(try alice.ack(.drag(phase: .begin, x: 400, y: 300, body: box), id: 3) != nil)
            #expect(try bob.step(1, id: 4)?.drags.map(\.body) == [box])
            _ = try #require(try alice.joinRoom("main", id: 5).ack)
            #expect(try bob.step(1, id: 6)?.drags.isEmpty == true, "alice's drag ended when she left lab")
            withExtendedLifetime(server) {}
        }
    }
}

extension EndToEnd {
    /// Determinism per room (docs/PROTOCOL.md, Rooms): rooms stepped in parallel on worker threads give the
    /// same poses at the same tick when they start from the same scene.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RoomDeterminismTests {
        /// Full snapshots of the room `client` is in, by tick, until one at or past `tick`.
        private func snapshots(_ client: LineClient, through tick: UInt64) -> [UInt64: Snapshot] {
            var seen: [UInt64: Snapshot] = [:]
            while let snapshot = client.nextSnapshot(timeout: 10) {
                seen[snapshot.tick] = snapshot
                if snapshot.tick >= tick { break }
            }
            return seen
        }

        @Test func twoRoomsFromOneSceneStepInParallelToTheSamePoses() throws {
            let server = try ServerProcess(["--scene", "default", "--threads", "2"])
            let alice = try server.connect()
            _ = alice.join()
            let bob = try server.connect()
            _ = bob.join()
            _ = try #require(try alice.joinRoom("left", #""scene":"default""#, id: 1).ack)
            _ = try #require(try bob.joinRoom("right", #""scene":"default""#, id: 1).ack)
            let left = snapshots(alice, through: 90)
            let right = snapshots(bob, through: 90)
            let common = Set(left.keys).intersection(right.keys).filter { $0 > 0 }.sorted()
            #expect(common.count >= 10, "snapshots of the same ticks in both rooms: \(common)")
            var moved = false
            for tick in common {
                let a = try #require(left[tick]), b = try #require(right[tick])
                #expect(a.bodies == b.bodies, "tick \(tick): the rooms differ")
                if a.bodies.contains(where: { $0.vy != 0 }) { moved = true }
            }
            #expect(moved, "the rooms were busy (items falling), so the workers stepped them")
            withExtendedLifetime(server) {}
        }
    }
}
