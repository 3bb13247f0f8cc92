import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Three clients of one server see the same world, tick for tick.
    @Suite(.serialized)
    struct ThreeClientsAgreeTests {
        @Test(.timeLimit(.minutes(5))) func everyClientGetsWelcomeWithTheSpecFieldsFirst() throws {
            let server = try ServerProcess()
            let clients = try (0..<3).map { _ in try server.connect() }
            var ids: Set<Int> = []
            for client in clients {
                let line = try #require(client.nextLine(timeout: 10))
                // The exact wire shape of docs/PROTOCOL.md's example, field for field.
                #expect(line == "{\"type\":\"welcome\",\"protocol\":1,\"client\":\(welcomeID(line)),\"server\":\"dynserver 0.1.0\","
                        + "\"world\":{\"width\":800,\"height\":600},\"tick_hz\":60,\"snapshot_hz\":30,\"auth_required\":false,\"room\":\"main\",\"http_port\":\(try #require(server.httpPort))}")
                guard case let .welcome(welcome)? = ServerMessage.decode(line) else {
                    Issue.record("first line is not a welcome: \(line)")
                    continue
                }
                #expect(welcome.protocolVersion == 1)
                ids.insert(welcome.client)
            }
            #expect(ids.count == 3, "each client has its own id")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func threeClientsGetSceneThenSnapshotsWithEqualTicksAndBodies() throws {
            let server = try ServerProcess(["--scene", "default"])
            let clients = try (0..<3).map { _ in try server.connect() }
            var scenes: [SceneInfo] = []
            for client in clients {
                let joined = client.join()
                #expect(joined.welcome != nil)
                scenes.append(try #require(joined.scene, "scene follows welcome"))
                #expect(joined.snapshot != nil, "a snapshot follows the scene")
            }
            #expect(scenes[0].name == "default")
            #expect(scenes[0].bodies.count >= 10)
            #expect(scenes[1] == scenes[0] && scenes[2] == scenes[0])

            // The kernel buffers what a client does not read yet, so reading them one after another is fine: the
            // first reads 1.5 s of world time (90 ticks), the others up to the same tick.
            let firstStream = clients[0].snapshots(for: 1.5)
            let lastTick = try #require(firstStream.last?.tick)
            let streams = [firstStream] + clients.dropFirst().map { $0.snapshots(for: 0, fromTick: lastTick) }
            let byTick = streams.map { Dictionary($0.map { ($0.tick, $0) }, uniquingKeysWith: { a, _ in a }) }
            let common = Set(byTick[0].keys).intersection(byTick[1].keys).intersection(byTick[2].keys)
            #expect(common.contains(lastTick), "every client got the last tick")
            #expect(common.count >= 20, "90 ticks at 30 snapshots a second give ~45 snapshots; \(common.count) were common")
            for tick in common.sorted() {
                let a = try #require(byTick[0][tick]), b = try #require(byTick[1][tick]), c = try #require(byTick[2][tick])
                #expect(a.bodies == b.bodies && a.bodies == c.bodies, "tick \(tick): bodies differ")
                #expect(a.time == b.time && a.time == c.time)
                #expect(a.bodies.count == scenes[0].bodies.count)
            }
            let sceneIDs = Set(scenes[0].bodies.map(\.id))
            #expect(Set(streams[0].last?.bodies.map(\.id) ?? []) == sceneIDs, "snapshot bodies are the scene's bodies")
            withExtendedLifetime(server) {}
        }

        private func welcomeID(_ line: String) -> String {
            guard let range = line.range(of: "\"client\":") else { return "?" }
            return String(line[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
