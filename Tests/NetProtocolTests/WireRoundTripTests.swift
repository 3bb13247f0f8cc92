import Testing
@testable import NetProtocol

private let commands: [ClientCommand] = [
    .hello(name: "ann \"the\" tester\n", token: "s3cret", protocolVersion: 1),
    .hello(name: nil, token: nil, protocolVersion: nil),
    .hello(name: "sub", token: nil, protocolVersion: 1, subscribe: SubscriptionChange(contacts: true, snapshots: .compact)),
    .subscribe(SubscriptionChange(contacts: true, notices: false, snapshots: .off, snapshotHz: 10)),
    .subscribe(SubscriptionChange()),
    .ping(t: .object([("sent", .number(1_700_000_000.123)), ("tags", .array([.string("a"), .null, .bool(false)]))])),
    .ping(t: nil),
    .ping(t: .null),
    .tap(x: 412.5, y: -3.25, body: nil, mode: .continuous),
    .tap(x: 0.1, y: 1e-7, body: 12, mode: .instantaneous),
    .push(body: 3, direction: .angle(-1.5707963267948966, magnitude: 2.5), mode: .instantaneous, active: true,
          offset: Point(10, -5)),
    .push(body: 3, direction: .vector(dx: 0.3, dy: -0.4), mode: nil, active: nil, offset: nil),
    .push(body: 3, direction: nil, mode: nil, active: false, offset: nil),
    .drag(phase: .begin, x: 100, y: 200, body: 5),
    .drag(phase: .move, x: 1e6, y: -1e6, body: nil),
    .drag(phase: .end, x: nil, y: nil, body: nil),
    .snap(body: 8, x: 400, y: 300, damping: 0.5),
    .snap(body: 8, x: 1, y: 2, damping: nil),
    .unsnap(body: 8),
    .set(body: 2, patch: PropertyPatch(elasticity: 1, friction: 0.25, density: 3, resistance: 0, angularResistance: 1e9,
                                       allowsRotation: false, anchored: true, color: "#12abEF")),
    .set(body: 2, patch: PropertyPatch(color: "#000000")),
    .gravity(.vector(dx: 0, dy: 1, magnitude: nil)),
    .gravity(.vector(dx: -1, dy: 0.5, magnitude: 2)),
    .gravity(.angle(3.141592653589793, magnitude: 0.5)),
    .gravity(.angle(0, magnitude: nil)),
    .gravity(.magnitude(-1)),
    .collision(mode: .boundaries),
    .spawn(shape: .rect, width: 80, height: 40.5, x: 400, y: 300, angle: 0.7853981633974483, vx: -10, vy: 20,
           patch: PropertyPatch(elasticity: 0.5, density: 2, color: "#ff8800")),
    .spawn(shape: .ellipse, width: 50, height: 50, x: 1, y: 2, angle: nil, vx: nil, vy: nil, patch: PropertyPatch()),
    .spawn(shape: .polygon([Point(-10, -10), Point(10, -10), Point(0, 12.5)]), width: 20, height: 22.5, x: 5, y: 6,
           angle: nil, vx: nil, vy: nil, patch: PropertyPatch(anchored: true)),
    .remove(body: 9_007_199_254_740_991),
    .scene(name: "attachment"),
]

@Test(.timeLimit(.minutes(3))) func everyClientCommandRoundTripsThroughItsLine() {
    for (index, command) in commands.enumerated() {
        let ids: [MessageID?] = [nil, .string("req-\(index)"), .number("\(index)"), .number("1.50e+3")]
        for id in ids {
            let message = ClientMessage(id: id, command)
            let bytes = message.encoded()
            #expect(bytes.last == UInt8(ascii: "\n"))
            #expect(bytes.dropLast().contains(UInt8(ascii: "\n")) == false)
            let decoded = ClientMessage.decode(Array(bytes.dropLast()))
            #expect((try? decoded.get()) == message, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

@Test(.timeLimit(.minutes(3))) func clientLinesHaveTheDocumentedShape() {
    #expect(String(decoding: ClientMessage(id: .number("3"), .tap(x: 10, y: 20.5, body: nil, mode: .continuous)).encoded(),
                   as: UTF8.self) == #"{"type":"tap","id":3,"x":10,"y":20.5,"mode":"continuous"}"# + "\n")
    #expect(String(decoding: ClientMessage(.unsnap(body: 3)).encoded(), as: UTF8.self)
        == #"{"type":"snap","body":3,"active":false}"# + "\n")
    #expect(String(decoding: ClientMessage(.set(body: 1, patch: PropertyPatch(angularResistance: 2, allowsRotation: true)))
        .encoded(), as: UTF8.self) == #"{"type":"set","body":1,"angular_resistance":2,"allows_rotation":true}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func aNumericIDThatIsNotJSONNumberTextIsWrittenAsAString() {
    let bytes = ClientMessage(id: .number("0x1F"), .ping(t: nil)).encoded()
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"type":"ping","id":"0x1F"}"# + "\n")
}
