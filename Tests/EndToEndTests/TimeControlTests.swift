import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `pause`, `resume` and `step` (docs/PROTOCOL.md): a held world stands still; a step is exact.
    @Suite(.serialized)
    struct TimeControlTests {
        @Test(.timeLimit(.minutes(5))) func pauseFreezesTimeAndStepAdvancesItByExactlyTicksOverTickHz() throws {
            let server = try ServerProcess(["--scene", "gravity"])
            let client = try server.connect()
            _ = client.join()
            try client.send(ClientMessage(id: .int(1), .pause))
            // The held snapshot goes to everyone before the pause's ack.
            let held = try #require(client.nextSnapshot { $0.held }, "pause sends a held snapshot")
            guard case let .ack(_, fields)? = client.answer(to: .int(1)) else { Issue.record("pause not acked"); return }
            #expect(fields.first { $0.0 == "held" }?.1 == .bool(true))
            // Nothing moves while held: the world's tick, read back from a pong, is still the held one, and no
            // snapshot comes for half a second (a running world sends one every other tick).
            #expect(try client.currentTick() == held.tick, "the tick stays while held")
            #expect(client.nextSnapshot(timeout: 0.5) == nil, "no snapshot while held")
            #expect(try client.currentTick() == held.tick, "the tick stays while held")
            let stepped = try #require(try client.step(10, id: 2))
            #expect(stepped.tick == held.tick + 10)
            #expect(abs(stepped.time - (held.time + 10.0 / 60)) < 0.0011, "time \(held.time) -> \(stepped.time)")
            #expect(stepped.held)
            let falling = try #require(held.bodies.first)
            #expect(try #require(stepped.body(falling.id)).y > falling.y, "the steps moved the items")
            _ = try #require(try client.ack(.resume, id: 3))
            let running = try #require(client.nextSnapshot(timeout: 5) { $0.tick > stepped.tick })
            #expect(!running.held)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func stepCountsTimeAlsoWhileTheItemsRest() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            let start = try #require(client.join().snapshot)
            #expect(start.held && start.tick == 0 && start.time == 0)
            let stepped = try #require(try client.step(600, id: 1))
            #expect(stepped.tick == 600)
            #expect(stepped.time == 10)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func stepWithoutPauseIsBadValue() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = client.join()
            let error = try #require(try client.error(#"{"type":"step","ticks":5,"id":1}"#, id: .int(1)))
            #expect(error.code == .badValue)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func holdLastsAcrossSceneLoads() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(.scene(name: "gravity"), id: 1))
            let before = try #require(try client.step(1, id: 2))
            // The tick, read back from a pong around half a second without snapshots, stays where the step left it.
            #expect(try client.currentTick() == before.tick, "a scene load does not release the hold")
            #expect(client.nextSnapshot(timeout: 0.5) == nil, "no snapshot while held")
            #expect(try client.currentTick() == before.tick, "a scene load does not release the hold")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func twoServersGivenTheSameCommandsSendByteIdenticalSnapshots() throws {
            func run() throws -> [String] {
                let server = try ServerProcess(["--scene", "default", "--held"])
                let client = try server.connect()
                _ = client.join()
                var lines: [String] = []
                lines.append(try #require(try client.stepLine(30, id: 1)))
                _ = try #require(try client.ack(#"{"type":"tap","id":2,"x":300,"y":200,"mode":"instantaneous"}"#, id: 2))
                _ = try #require(try client.ack(#"{"type":"spawn","id":3,"shape":"ellipse","width":30,"height":30,"x":420,"y":60}"#, id: 3))
                lines.append(try #require(try client.stepLine(45, id: 4)))
                _ = try #require(try client.ack(#"{"type":"velocity","id":5,"body":1,"vx":250,"av":2}"#, id: 5))
                lines.append(try #require(try client.stepLine(120, id: 6)))
                withExtendedLifetime(server) {}
                return lines
            }
            let first = try run()
            let second = try run()
            #expect(first.count == 3)
            #expect(first == second)
        }

        @Test(.timeLimit(.minutes(5))) func pauseThenSceneLoadGivesTheSameBodiesOnTwoServers() throws {
            func run() throws -> [BodyState] {
                let server = try ServerProcess(["--scene", "default"])
                let client = try server.connect()
                _ = client.join()
                try client.send(ClientMessage(id: .int(1), .pause))
                _ = try #require(client.answer(to: .int(1)))
                _ = try #require(try client.ack(.scene(name: "joints"), id: 2))
                _ = try #require(try client.ack(#"{"type":"tap","id":3,"x":300,"y":100,"mode":"instantaneous"}"#, id: 3))
                let stepped = try #require(try client.step(90, id: 4))
                withExtendedLifetime(server) {}
                return stepped.bodies
            }
            let first = try run()
            #expect(!first.isEmpty)
            #expect(first == (try run()))
        }
    }
}
