import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Every error code of every field of the revision-2 commands (docs/PROTOCOL.md), through a real server:
    /// each bad line gets exactly one `error` with its code and the line's `id`, and the connection stays usable.
    @Suite(.serialized)
    struct UIKitErrorCodeTests {
        /// (fields after `"type"`, expected code). Body 1 and 2 exist (scene `collision`); nothing else does.
        static let cases: [(String, ErrorCode)] = [
            // attach
            (#""attach","anchor":{"x":1,"y":2}"#, .badMessage),
            (#""attach","body":"1","anchor":{"x":1,"y":2}"#, .badMessage),
            (#""attach","body":0,"anchor":{"x":1,"y":2}"#, .badValue),
            (#""attach","body":1"#, .badMessage),
            (#""attach","body":1,"anchor":{"x":1,"y":2},"to_body":2"#, .badMessage),
            (#""attach","body":1,"anchor":[1,2]"#, .badMessage),
            (#""attach","body":1,"anchor":{"x":1e999,"y":2}"#, .badValue),
            (#""attach","body":1,"to_body":1"#, .badValue),
            (#""attach","body":1,"to_body":2,"to_offset":{"x":1}"#, .badMessage),
            (#""attach","body":1,"to_body":2,"offset":"a""#, .badMessage),
            (#""attach","body":1,"to_body":2,"kind":"glue""#, .badValue),
            (#""attach","body":1,"to_body":2,"kind":7"#, .badMessage),
            (#""attach","body":1,"to_body":2,"length":-1"#, .badValue),
            (#""attach","body":1,"to_body":2,"frequency":-1"#, .badValue),
            (#""attach","body":1,"to_body":2,"damping":1.5"#, .badValue),
            (#""attach","body":1,"to_body":2,"kind":"limit""#, .badMessage),
            (#""attach","body":1,"to_body":2,"kind":"sliding""#, .badMessage),
            (#""attach","body":1,"to_body":2,"kind":"sliding","axis":{"dx":0,"dy":0}"#, .badValue),
            (#""attach","body":1,"to_body":2,"kind":"sliding","axis":{"dx":1,"dy":0},"range":[10,20]"#, .badValue),
            (#""attach","body":1,"to_body":2,"kind":"sliding","axis":{"dx":1,"dy":0},"range":[1]"#, .badMessage),
            (#""attach","body":1,"to_body":2,"kind":"pin","range":[1,-1]"#, .badValue),
            (#""attach","body":1,"to_body":2,"kind":"pin","friction_torque":-5"#, .badValue),
            (#""attach","body":1,"to_body":2,"kind":"pin","point":{"x":"1","y":2}"#, .badMessage),
            (#""attach","body":99,"anchor":{"x":1,"y":2}"#, .unknownBody),
            (#""attach","body":1,"to_body":99"#, .unknownBody),
            (#""attach","body":1,"offset":{"x":1e9,"y":0},"anchor":{"x":1,"y":2}"#, .badValue),
            (#""attach","body":1,"to_body":2,"to_offset":{"x":0,"y":-2e5}"#, .badValue),
            (#""attach","body":1,"anchor":{"x":1e9,"y":2},"kind":"fixed""#, .badValue),
            // anchor, detach
            (#""anchor","x":1,"y":2"#, .badMessage),
            (#""anchor","attachment":"1","x":1,"y":2"#, .badMessage),
            (#""anchor","attachment":1.5,"x":1,"y":2"#, .badValue),
            (#""anchor","attachment":1,"y":2"#, .badMessage),
            (#""anchor","attachment":9999,"x":1,"y":2"#, .badValue),
            (#""detach""#, .badMessage),
            (#""detach","attachment":-1"#, .badValue),
            (#""detach","attachment":9999"#, .badValue),
            // field, unfield
            (#""field","x":1,"y":2"#, .badMessage),
            (#""field","kind":"radial_gravity","field":3,"x":1,"y":2"#, .badMessage),
            (#""field","kind":"gravity_well","x":1,"y":2"#, .badValue),
            (#""field","kind":"vortex","y":2"#, .badMessage),
            (#""field","kind":"vortex","x":1,"y":2,"strength":"big""#, .badMessage),
            (#""field","kind":"vortex","x":1,"y":2,"strength":1e999"#, .badValue),
            (#""field","kind":"vortex","x":1,"y":2,"falloff":-1"#, .badValue),
            (#""field","kind":"vortex","x":1,"y":2,"falloff":17"#, .badValue),
            (#""field","kind":"vortex","x":1,"y":2,"min_radius":-1"#, .badValue),
            (#""field","kind":"vortex","x":1,"y":2,"region":5"#, .badMessage),
            (#""field","kind":"vortex","x":1,"y":2,"region":{"radius":0}"#, .badValue),
            (#""field","kind":"vortex","x":1,"y":2,"region":{"width":10}"#, .badMessage),
            (#""field","kind":"vortex","x":1,"y":2,"direction":{"dx":1}"#, .badMessage),
            (#""field","kind":"noise","x":1,"y":2,"smoothness":2"#, .badValue),
            (#""field","kind":"noise","x":1,"y":2,"animation_speed":-2"#, .badValue),
            (#""field","kind":"noise","x":1,"y":2,"bodies":3"#, .badMessage),
            (#""field","kind":"noise","x":1,"y":2,"bodies":[0]"#, .badValue),
            (#""field","kind":"noise","x":1,"y":2,"bodies":[99]"#, .unknownBody),
            (#""field","field":3"#, .badMessage),
            (#""field","field":9999,"x":1"#, .badValue),
            (#""unfield""#, .badMessage),
            (#""unfield","field":9999"#, .badValue),
            // velocity
            (#""velocity","body":1"#, .badMessage),
            (#""velocity","vx":1"#, .badMessage),
            (#""velocity","body":1,"vx":"1""#, .badMessage),
            (#""velocity","body":1,"vx":1e999"#, .badValue),
            (#""velocity","body":1,"av":1,"add":"no""#, .badMessage),
            (#""velocity","body":99,"vx":1"#, .unknownBody),
            // boundary, bounds
            (#""boundary","points":[[0,0],[1,1]]"#, .badMessage),
            (#""boundary","boundary":"bounds","points":[[0,0],[1,1]]"#, .badValue),
            (#""boundary","boundary":"a""#, .badMessage),
            (#""boundary","boundary":"a","points":[[0,0]]"#, .badValue),
            (#""boundary","boundary":"a","points":[[0,0],[0,0]]"#, .badValue),
            (#""boundary","boundary":"a","points":[[0,0],["1",1]]"#, .badMessage),
            (#""boundary","boundary":"a","points":[[0,0],[1,1]],"closed":1"#, .badMessage),
            (#""boundary","boundary":"nope","remove":true"#, .badValue),
            (#""bounds""#, .badMessage),
            (#""bounds","enabled":"on""#, .badMessage),
            (#""bounds","insets":{"top":"1"}"#, .badMessage),
            (#""bounds","insets":{"top":1e6}"#, .badValue),
            (#""bounds","insets":{"top":300,"bottom":300}"#, .badValue),
            // group, ungroup
            (#""group","bodies":[1]"#, .badValue),
            (#""group","bodies":[1,1]"#, .badValue),
            (#""group""#, .badMessage),
            (#""group","bodies":[1,99]"#, .unknownBody),
            (#""ungroup""#, .badMessage),
            (#""ungroup","group":9999"#, .badValue),
            // step, charge
            (#""step""#, .badMessage),
            (#""step","ticks":"1""#, .badMessage),
            (#""step","ticks":0"#, .badValue),
            (#""step","ticks":601"#, .badValue),
            (#""step","ticks":5"#, .badValue),
            (#""set","body":1,"charge":"+""#, .badMessage),
            (#""set","body":1,"charge":1e999"#, .badValue),
        ]

        @Test(.timeLimit(.minutes(5))) func everyBadFieldGetsItsCodeWithTheIDAndTheConnectionStays() throws {
            let server = try ServerProcess(["--scene", "collision", "--rate", "10000", "--burst", "10000"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            #expect(scene.bodies.map(\.id) == [1, 2])
            for (k, (fields, code)) in Self.cases.enumerated() {
                let line = #"{"id":"e\#(k)","type":"# + fields + "}"
                let error = try client.error(line, id: .string("e\(k)"))
                #expect(error?.code == code, "\(line) -> \(error.map { "\($0.code): \($0.message)" } ?? "no error")")
                #expect(error?.message.contains("invalidValue") == false)
            }
            #expect(try client.ack(.velocity(body: 1, vx: 1, vy: nil, av: nil, add: true), id: 1) != nil, "still usable")
            withExtendedLifetime(server) {}
        }
    }
}
