import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The animator pauses when everything rests: one `paused:true` snapshot, then a keep-alive once a second
    /// (every `tick_hz` ticks), and any world-changing command resumes it at once.
    @Suite(.serialized)
    struct PauseTests {
        @Test(.timeLimit(.minutes(5))) func settlingWorldSendsOnePausedSnapshotThenKeepAlivesEveryTickHzTicks() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = try #require(client.join().scene)
            let spawn = #"{"type":"spawn","id":1,"shape":"rect","width":50,"height":50,"x":400,"y":560}"#
            let body = Int(try #require(try client.ack(spawn, id: 1)?.number("body")))
            let moving = try #require(client.nextSnapshot { !$0.paused && $0.body(body) != nil }, "the spawn resumed the world")
            let firstPaused = try #require(client.nextSnapshot(timeout: 15) { $0.paused }, "the item never came to rest")
            #expect(firstPaused.tick > moving.tick)
            #expect(abs((firstPaused.body(body)?.y ?? 0) - 575) < 1, "rests on the floor")

            // The next two snapshots, each waited for with a deadline: keep-alives, still paused.
            let keepAlives = (0..<2).compactMap { _ in client.nextSnapshot(timeout: 5) }
            #expect(keepAlives.count == 2, "\(keepAlives.count) keep-alives")
            #expect(keepAlives.allSatisfy { $0.paused })
            let ticks = [firstPaused.tick] + keepAlives.map(\.tick)
            for (a, b) in zip(ticks, ticks.dropFirst()) {
                #expect((60...62).contains(b - a), "keep-alive \(b - a) ticks after the previous one")
            }
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func clientJoiningAPausedWorldGetsTheCurrentSnapshotAtOnce() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let early = try server.connect()
            _ = early.join()
            // A freshly loaded scene runs until its first step finds everything at rest.
            _ = try #require(early.nextSnapshot { $0.paused }, "the empty world pauses")
            let client = try server.connect()
            // Asked before reading anything: without a join snapshot the pong would come before any snapshot.
            try client.send(#"{"type":"ping","id":"j"}"#)
            let lines = (0..<4).compactMap { _ in client.nextLine(timeout: 5) }.map(ServerMessage.decode)
            #expect(lines.count == 4)
            guard lines.count == 4, case .welcome? = lines[0], case .scene? = lines[1],
                  case let .snapshot(snapshot)? = lines[2], case let .pong(_, tick, _)? = lines[3] else {
                Issue.record("expected welcome, scene, snapshot, pong; got \(lines)")
                return
            }
            #expect(snapshot.paused)
            #expect(snapshot.tick <= tick)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func pingDoesNotResumeButASpawnDoes() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = try #require(client.join().snapshot)
            for id in 1...3 { _ = try client.request(#"{"type":"ping","id":\#(id)}"#, id: .int(id)) }
            _ = try client.request(#"{"type":"hello","id":4,"name":"idle"}"#, id: .int(4))
            // The next snapshot after them is a keep-alive of a world still paused (a resumed world would send a
            // running one at once).
            let quiet = try #require(client.nextSnapshot(timeout: 5), "a keep-alive comes once a second")
            #expect(quiet.paused, "ping and hello leave the world paused")

            let spawn = #"{"type":"spawn","id":5,"shape":"rect","width":20,"height":20,"x":400,"y":100}"#
            let body = Int(try #require(try client.ack(spawn, id: 5)?.number("body")))
            let next = try #require(client.nextSnapshot(timeout: 2))
            #expect(next.paused == false)
            #expect(next.body(body) != nil)
            withExtendedLifetime(server) {}
        }
    }
}
