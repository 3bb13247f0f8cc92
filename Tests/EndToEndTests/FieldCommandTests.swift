import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `field` and `unfield` (docs/PROTOCOL.md, docs/UIKIT.md Fields), read back from held steps.
    @Suite(.serialized)
    struct FieldCommandTests {
        @Test(.timeLimit(.minutes(5))) func aRadialFieldPullsAnItemTowardItsPosition() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(.gravity(.magnitude(0)), id: 1))
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":100,"height":100,"x":600,"y":300}"#, id: 2)?.number("body")))
            let scenes = client.sceneCount
            let ack = try #require(try client.ack(#"{"type":"field","id":3,"kind":"radial_gravity","x":400,"y":300,"strength":2}"#, id: 3))
            let field = Int(try #require(ack.number("field")))
            let listed = try #require(client.scene(after: scenes)?.fields.first)
            #expect(listed.id == field && listed.kind == .radialGravity && listed.strength == 2 && listed.region == .infinite)
            // 2 m/s² = 200 pt/s² toward (400, 300): after 0.5 s, v = -100 pt/s and 25 pt travelled.
            let pulled = try #require(try client.step(30, id: 4)?.body(body))
            #expect(abs(pulled.vx + 100) < 0.01, "vx \(pulled.vx)")
            #expect(abs(pulled.x - 575) < 0.5, "x \(pulled.x)")
            #expect(pulled.y == 300)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func movingAFieldChangesWhereItPullsAndUnfieldRemovesIt() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(.gravity(.magnitude(0)), id: 1))
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":100,"height":100,"x":400,"y":300}"#, id: 2)?.number("body")))
            let field = Int(try #require(try client.ack(#"{"type":"field","id":3,"kind":"radial_gravity","x":400,"y":100,"region":{"radius":150}}"#, id: 3)?.number("field")))
            let outside = try #require(try client.step(10, id: 4)?.body(body))
            #expect(outside.vy == 0, "200 pt away, outside the 150 pt region")
            let scenes = client.sceneCount
            _ = try #require(try client.ack(.fieldUpdate(field: field, FieldParameters(x: 400, y: 400)), id: 5))
            #expect(client.scene(after: scenes)?.fields.first.map { Point($0.x, $0.y) } == Point(400, 400))
            let pulled = try #require(try client.step(30, id: 6)?.body(body))
            #expect(abs(pulled.vy - 50) < 0.01, "1 m/s² down toward the moved field: vy \(pulled.vy)")
            _ = try #require(try client.ack(.unfield(field: field), id: 7))
            let coasting = try #require(try client.step(30, id: 8)?.body(body))
            #expect(coasting.vy == pulled.vy, "no field, no change")
            let gone = try #require(try client.error(#"{"type":"unfield","id":9,"field":\#(field)}"#, id: .int(9)))
            #expect(gone.code == .badValue && gone.message.contains("\"field\""))
            let unknown = try #require(try client.error(#"{"type":"field","id":10,"kind":"drag","x":1,"y":1,"bodies":[\#(body),999]}"#, id: .int(10)))
            #expect(unknown.code == .unknownBody)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func chargeIsAnItemPropertyThatElectricFieldsAct() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(.gravity(.magnitude(0)), id: 1))
            let scenes = client.sceneCount
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":100,"height":100,"x":500,"y":300,"charge":-1}"#, id: 2)?.number("body")))
            #expect(client.scene(after: scenes)?.bodies.first?.charge == -1)
            _ = try #require(try client.ack(#"{"type":"field","id":3,"kind":"electric","x":400,"y":300}"#, id: 3))
            let attracted = try #require(try client.step(30, id: 4)?.body(body))
            #expect(abs(attracted.vx + 50) < 0.01, "unlike charges attract: vx \(attracted.vx)")
            withExtendedLifetime(server) {}
        }
    }
}
