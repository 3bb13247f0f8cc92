import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `group` and `ungroup` (docs/PROTOCOL.md), read back from held steps.
    @Suite(.serialized)
    struct GroupCommandTests {
        @Test(.timeLimit(.minutes(5))) func aGroupMovesAsOneAndEachMemberKeepsItsIDAndPose() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            let foot = Int(try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":120,"height":30,"x":400,"y":300}"#, id: 1)?.number("body")))
            let upright = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":30,"height":90,"x":355,"y":240}"#, id: 2)?.number("body")))
            let scenes = client.sceneCount
            let group = Int(try #require(try client.ack(.group(bodies: [foot, upright]), id: 3)?.number("group")))
            #expect(client.scene(after: scenes)?.groups == [GroupInfo(id: group, bodies: [foot, upright])])
            let landed = try #require(try client.step(180, id: 4))
            let f = try #require(landed.body(foot)), u = try #require(landed.body(upright))
            #expect(abs(f.y - 585) < 1.5 && abs(f.angle) < 0.02, "the L rests on its foot: y \(f.y), angle \(f.angle)")
            #expect(abs(u.x - f.x + 45) < 1 && abs(u.y - f.y + 60) < 1, "each member reports its own pose: (\(u.x), \(u.y))")
            let error = try #require(try client.error(#"{"type":"group","id":5,"bodies":[\#(foot),\#(upright)]}"#, id: .int(5)))
            #expect(error.code == .badValue && error.message.contains("already in group"))
            let split = client.sceneCount
            _ = try #require(try client.ack(.ungroup(group: group), id: 6))
            #expect(client.scene(after: split)?.groups == [])
            #expect(try client.error(#"{"type":"ungroup","id":7,"group":\#(group)}"#, id: .int(7))?.code == .badValue)
            #expect(try client.error(#"{"type":"group","id":8,"bodies":[\#(foot),424242]}"#, id: .int(8))?.code == .unknownBody)
            withExtendedLifetime(server) {}
        }
    }
}
