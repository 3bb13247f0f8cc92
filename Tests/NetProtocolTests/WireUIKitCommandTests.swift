import Testing
@testable import NetProtocol

/// The commands of docs/PROTOCOL.md "The rest of UIKit Dynamics": round trips and every error code.
private let commands: [ClientCommand] = [
    .attach(AttachSpec(body: 3, target: .anchor(Point(400, 100)))),
    .attach(AttachSpec(body: 3, offset: Point(10, -5), target: .body(4, offset: Point(0, 20)), kind: .distance,
                       length: 120, frequency: 2.5, damping: 0.3)),
    .attach(AttachSpec(body: 3, target: .body(4, offset: nil), kind: .limit, length: 200)),
    .attach(AttachSpec(body: 3, target: .body(4, offset: nil), kind: .fixed)),
    .attach(AttachSpec(body: 3, target: .anchor(Point(1, 2)), kind: .sliding, axis: DirectionVector(1, 0),
                       range: ValueRange(-50, 75.5))),
    .attach(AttachSpec(body: 3, target: .body(9, offset: nil), kind: .pin, range: ValueRange(-0.5, 0.5),
                       point: Point(300, 200), frictionTorque: 1000)),
    .anchor(attachment: 12, x: 410.5, y: -3),
    .detach(attachment: 12),
    .field(kind: .radialGravity, FieldParameters(x: 400, y: 300)),
    .field(kind: .noise, FieldParameters(x: 1, y: 2, strength: -3, falloff: 2, minRadius: 10,
                                         region: FieldRegionSpec(.rect(width: 200, height: 100), inverse: true),
                                         direction: DirectionVector(0, 1), smoothness: 0.5, animationSpeed: 2, bodies: [1, 2])),
    .field(kind: .vortex, FieldParameters(x: 1, y: 2, region: FieldRegionSpec(.radius(150)))),
    .field(kind: .drag, FieldParameters(x: 1, y: 2, region: .infinite, bodies: [])),
    .fieldUpdate(field: 7, FieldParameters(x: 10, y: 20)),
    .fieldUpdate(field: 7, FieldParameters(strength: 5)),
    .unfield(field: 7),
    .velocity(body: 2, vx: 100, vy: -50.5, av: nil, add: true),
    .velocity(body: 2, vx: nil, vy: nil, av: 3, add: false),
    .boundary(name: "ledge", points: [Point(0, 300), Point(200, 350)], closed: false),
    .boundary(name: "cup", points: [Point(0, 0), Point(10, 0), Point(10, 10)], closed: true),
    .removeBoundary(name: "ledge"),
    .bounds(enabled: false, insets: nil),
    .bounds(enabled: nil, insets: BoundsInsets(top: 10, left: 20, bottom: 30, right: 40)),
    .group(bodies: [3, 4, 5]),
    .ungroup(group: 2),
    .pause,
    .resume,
    .step(ticks: 600),
    .set(body: 2, patch: PropertyPatch(charge: -2.5)),
]

@Test(.timeLimit(.minutes(3))) func everyUIKitCommandRoundTripsThroughItsLine() {
    for command in commands {
        for id in [nil, MessageID.string("x"), MessageID.number("7")] {
            let message = ClientMessage(id: id, command)
            let bytes = message.encoded()
            let decoded = ClientMessage.decode(Array(bytes.dropLast()))
            #expect((try? decoded.get()) == message, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

@Test(.timeLimit(.minutes(3))) func uikitCommandLinesHaveTheDocumentedShape() {
    #expect(String(decoding: ClientMessage(id: .number("1"), .anchor(attachment: 3, x: 10, y: 20.5)).encoded(), as: UTF8.self)
        == #"{"type":"anchor","id":1,"attachment":3,"x":10,"y":20.5}"# + "\n")
    #expect(String(decoding: ClientMessage(.step(ticks: 10)).encoded(), as: UTF8.self) == #"{"type":"step","ticks":10}"# + "\n")
    #expect(String(decoding: ClientMessage(.removeBoundary(name: "ledge")).encoded(), as: UTF8.self)
        == #"{"type":"boundary","boundary":"ledge","remove":true}"# + "\n")
}

private func failure(_ line: String) -> ProtocolError? {
    if case let .failure(error) = ClientMessage.decode(line) { return error }
    return nil
}

private func code(_ line: String) -> ErrorCode? { failure(line)?.code }

@Test(.timeLimit(.minutes(3))) func attachAnswersEveryBadFieldWithItsCode() {
    #expect(failure(#"{"type":"attach","anchor":{"x":1,"y":2}}"#) == ProtocolError(.badMessage, "missing field \"body\""))
    #expect(code(#"{"type":"attach","body":"3","anchor":{"x":1,"y":2}}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":0,"anchor":{"x":1,"y":2}}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"anchor":{"x":1,"y":2},"to_body":4}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"anchor":[1,2]}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"anchor":{"x":1e999,"y":2}}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":3}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"to_offset":{"x":1}}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"offset":"a"}"#) == .badMessage)
    #expect(failure(#"{"type":"attach","body":3,"to_body":4,"kind":"glue"}"#)?.message.contains("\"kind\"") == true)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"glue"}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":7}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"length":-1}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"frequency":-1}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"damping":1.5}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"damping":true}"#) == .badMessage)
    #expect(failure(#"{"type":"attach","body":3,"to_body":4,"kind":"limit"}"#) == ProtocolError(.badMessage, "missing field \"length\""))
    #expect(failure(#"{"type":"attach","body":3,"to_body":4,"kind":"sliding"}"#) == ProtocolError(.badMessage, "missing field \"axis\""))
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"sliding","axis":{"dx":0,"dy":0}}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"sliding","axis":{"dx":1}}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"sliding","axis":{"dx":1,"dy":0},"range":[10,20]}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"sliding","axis":{"dx":1,"dy":0},"range":[20,-10]}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"sliding","axis":{"dx":1,"dy":0},"range":[1]}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"pin","range":"wide"}"#) == .badMessage)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"pin","friction_torque":-5}"#) == .badValue)
    #expect(code(#"{"type":"attach","body":3,"to_body":4,"kind":"pin","point":{"x":"1","y":2}}"#) == .badMessage)
}

@Test(.timeLimit(.minutes(3))) func anchorAndDetachAnswerEveryBadFieldWithItsCode() {
    #expect(failure(#"{"type":"anchor","x":1,"y":2}"#) == ProtocolError(.badMessage, "missing field \"attachment\""))
    #expect(code(#"{"type":"anchor","attachment":"1","x":1,"y":2}"#) == .badMessage)
    #expect(code(#"{"type":"anchor","attachment":1.5,"x":1,"y":2}"#) == .badValue)
    #expect(code(#"{"type":"anchor","attachment":1,"y":2}"#) == .badMessage)
    #expect(code(#"{"type":"anchor","attachment":1,"x":NaN,"y":2}"#) == .badValue)
    #expect(code(#"{"type":"detach"}"#) == .badMessage)
    #expect(code(#"{"type":"detach","attachment":-1}"#) == .badValue)
}

@Test(.timeLimit(.minutes(3))) func fieldAnswersEveryBadFieldWithItsCode() {
    #expect(code(#"{"type":"field","x":1,"y":2}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"radial_gravity","field":3,"x":1,"y":2}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"gravity_well","x":1,"y":2}"#) == .badValue)
    #expect(failure(#"{"type":"field","kind":"vortex","y":2}"#) == ProtocolError(.badMessage, "missing field \"x\""))
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"strength":"big"}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"strength":1e999}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"falloff":-1}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"min_radius":-1}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":5}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":{"radius":0}}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":{"radius":"1"}}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":{"width":10}}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":{"width":10,"height":-1}}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":{"radius":5,"width":10,"height":1}}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"region":{"radius":5,"inverse":1}}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"vortex","x":1,"y":2,"direction":{"dx":1}}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"noise","x":1,"y":2,"smoothness":2}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"noise","x":1,"y":2,"animation_speed":-2}"#) == .badValue)
    #expect(code(#"{"type":"field","kind":"noise","x":1,"y":2,"bodies":3}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"noise","x":1,"y":2,"bodies":["a"]}"#) == .badMessage)
    #expect(code(#"{"type":"field","kind":"noise","x":1,"y":2,"bodies":[0]}"#) == .badValue)
    #expect(code(#"{"type":"field","field":3}"#) == .badMessage)
    #expect(code(#"{"type":"field","field":0,"x":1}"#) == .badValue)
    #expect(code(#"{"type":"unfield"}"#) == .badMessage)
    #expect(code(#"{"type":"unfield","field":"3"}"#) == .badMessage)
}

@Test(.timeLimit(.minutes(3))) func itemAndWorldCommandsAnswerEveryBadFieldWithItsCode() {
    #expect(code(#"{"type":"velocity","body":1}"#) == .badMessage)
    #expect(code(#"{"type":"velocity","vx":1}"#) == .badMessage)
    #expect(code(#"{"type":"velocity","body":1,"vx":"1"}"#) == .badMessage)
    #expect(code(#"{"type":"velocity","body":1,"vx":1e999}"#) == .badValue)
    #expect(code(#"{"type":"velocity","body":1,"av":1,"add":"no"}"#) == .badMessage)
    #expect(code(#"{"type":"boundary","points":[[0,0],[1,1]]}"#) == .badMessage)
    #expect(code(#"{"type":"boundary","boundary":"bounds","points":[[0,0],[1,1]]}"#) == .badValue)
    #expect(code(#"{"type":"boundary","boundary":"","points":[[0,0],[1,1]]}"#) == .badValue)
    #expect(code(#"{"type":"boundary","boundary":"a"}"#) == .badMessage)
    #expect(code(#"{"type":"boundary","boundary":"a","points":[[0,0]]}"#) == .badValue)
    #expect(code(#"{"type":"boundary","boundary":"a","points":[[0,0],[0,0]]}"#) == .badValue)
    #expect(code(#"{"type":"boundary","boundary":"a","points":[[0,0],["1",1]]}"#) == .badMessage)
    #expect(code(#"{"type":"boundary","boundary":"a","points":[[0,0],[1e999,1]]}"#) == .badValue)
    #expect(code(#"{"type":"boundary","boundary":"a","points":[[0,0],[1,1]],"closed":1}"#) == .badMessage)
    #expect(code(#"{"type":"boundary","boundary":"a","remove":"yes"}"#) == .badMessage)
    #expect(code(#"{"type":"bounds"}"#) == .badMessage)
    #expect(code(#"{"type":"bounds","enabled":"on"}"#) == .badMessage)
    #expect(code(#"{"type":"bounds","insets":[1,2,3,4]}"#) == .badMessage)
    #expect(code(#"{"type":"bounds","insets":{"top":"1"}}"#) == .badMessage)
    #expect(code(#"{"type":"bounds","insets":{"top":1e6}}"#) == .badValue)
    #expect(code(#"{"type":"group","bodies":[1]}"#) == .badValue)
    #expect(code(#"{"type":"group","bodies":[1,1]}"#) == .badValue)
    #expect(code(#"{"type":"group"}"#) == .badMessage)
    #expect(code(#"{"type":"ungroup"}"#) == .badMessage)
    #expect(code(#"{"type":"ungroup","group":0}"#) == .badValue)
    #expect(code(#"{"type":"step"}"#) == .badMessage)
    #expect(code(#"{"type":"step","ticks":"1"}"#) == .badMessage)
    #expect(code(#"{"type":"step","ticks":0}"#) == .badValue)
    #expect(code(#"{"type":"step","ticks":601}"#) == .badValue)
    #expect(code(#"{"type":"step","ticks":1.5}"#) == .badValue)
    #expect(code(#"{"type":"set","body":1,"charge":"+"}"#) == .badMessage)
    #expect(code(#"{"type":"set","body":1,"charge":1e999}"#) == .badValue)
}

@Test(.timeLimit(.minutes(3))) func contactAndNoticeMessagesRoundTrip() {
    let messages: [ServerMessage] = [
        .contact(ContactReport(phase: .began, tick: 120, a: 3, partner: .body(7), point: Point(400.5, 599))),
        .contact(ContactReport(phase: .ended, tick: 121, a: 3, partner: .boundary("bounds"), dropped: 12)),
        .notice(Notice(client: 7, name: "bob", command: "scene", summary: "loaded snap")),
    ]
    for message in messages {
        #expect(ServerMessage.decode(message.encoded()) == message)
    }
    #expect(String(decoding: ServerMessage.notice(Notice(client: 7, name: "bob", command: "scene", summary: "loaded snap")).encoded(),
                   as: UTF8.self) == #"{"type":"notice","client":7,"name":"bob","command":"scene","summary":"loaded snap"}"# + "\n")
    #expect(String(decoding: ServerMessage.contact(ContactReport(phase: .began, tick: 5, a: 3, partner: .boundary("ledge"),
                                                                   point: Point(1, 2))).encoded(), as: UTF8.self)
        == #"{"type":"contact","phase":"began","tick":5,"a":3,"boundary":"ledge","point":{"x":1,"y":2}}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func sceneWithEveryNewListRoundTrips() {
    var scene = SceneInfo(name: "joints", gravity: GravityInfo(dx: 0, dy: 1, magnitude: 1), collisionMode: .everything,
                          bodies: [BodyInfo(id: 1, shape: .rect, width: 10, height: 10, color: "#ffffff", charge: -1.5)])
    var pin = AttachmentInfo(body: 1, toBody: 2, offset: Point(0, 0), toOffset: Point(1, 1), length: 0, frequency: 0, damping: 0)
    pin.id = 12
    pin.kind = .pin
    pin.range = ValueRange(-1, 1)
    pin.point = Point(5, 5)
    pin.frictionTorque = 100
    var slide = AttachmentInfo(body: 1, anchor: Point(3, 4), offset: Point(0, 0), length: 0, frequency: 0, damping: 0)
    slide.id = 13
    slide.kind = .sliding
    slide.axis = DirectionVector(1, 0)
    scene.attachments = [pin, slide]
    scene.fields = [FieldInfo(id: 4, kind: .vortex, x: 1, y: 2, strength: -2, falloff: 1, minRadius: 5,
                              region: FieldRegionSpec(.radius(100), inverse: true), direction: DirectionVector(0, 1),
                              smoothness: 0.5, animationSpeed: 1, bodies: [1])]
    scene.bounds = BoundsInfo(enabled: false, insets: BoundsInsets(top: 1, left: 2, bottom: 3, right: 4))
    scene.groups = [GroupInfo(id: 9, bodies: [1, 2])]
    #expect(ServerMessage.decode(ServerMessage.scene(scene).encoded()) == .scene(scene))
}

@Test(.timeLimit(.minutes(3))) func heldSnapshotsSayHeldAndRoundTrip() {
    var snapshot = Snapshot(tick: 10, time: 0.167, paused: false, clients: 1, bodies: [BodyState(id: 1, x: 1, y: 2, angle: 0)])
    snapshot.held = true
    let line = String(decoding: ServerMessage.snapshot(snapshot).encoded(), as: UTF8.self)
    #expect(line.hasPrefix(#"{"type":"snapshot","tick":10,"time":0.167,"paused":false,"held":true,"clients":1,"#))
    #expect(ServerMessage.decode(line) == .snapshot(snapshot))
    snapshot.held = false
    #expect(!String(decoding: ServerMessage.snapshot(snapshot).encoded(), as: UTF8.self).contains("held"))
}
