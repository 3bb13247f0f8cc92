import Testing
@testable import NetProtocol

private func text(_ message: ServerMessage) -> String { String(decoding: message.encoded(), as: UTF8.self) }

private let welcome = Welcome(client: 7, server: "dynserver 0.1.0", worldWidth: 800, worldHeight: 600, tickHz: 60,
                              snapshotHz: 30, authRequired: false)

private let scene = SceneInfo(
    name: "default",
    gravity: GravityInfo(dx: 0, dy: 1, magnitude: 1),
    collisionMode: .everything,
    bodies: [
        BodyInfo(id: 1, shape: .rect, width: 80, height: 80, color: "#e05050"),
        BodyInfo(id: 2, shape: .ellipse, width: 40, height: 40, elasticity: 0.9, friction: 0.2, density: 2.5,
                 resistance: 0.1, angularResistance: 0.3, allowsRotation: false, anchored: true, color: "#50e050"),
        BodyInfo(id: 3, shape: .polygon([Point(0, -20), Point(17.3, 10), Point(-17.3, 10)]), width: 34.6, height: 30,
                 color: "#5050e0"),
    ],
    boundaries: [BoundaryInfo(id: "ledge", points: [Point(100, 400), Point(300, 420)], closed: false)],
    attachments: [
        AttachmentInfo(body: 1, anchor: Point(400, 50), offset: Point(10, -40), length: 120, frequency: 0, damping: 0),
        AttachmentInfo(body: 2, toBody: 3, offset: Point(0, 0), toOffset: Point(1, 2), length: 50, frequency: 2,
                       damping: 0.3),
    ],
    snaps: [SnapInfo(body: 2, point: Point(400, 300), damping: 0.5)])

private let messages: [ServerMessage] = [
    .welcome(welcome),
    .welcome(Welcome(client: 1, server: "x", worldWidth: 1024.5, worldHeight: 768, tickHz: 120, snapshotHz: 20,
                     authRequired: true)),
    .welcome(Welcome(client: 2, server: "x", worldWidth: 800, worldHeight: 600, tickHz: 60, snapshotHz: 30,
                     authRequired: false, room: "lab", httpPort: 47_123)),
    .scene(scene),
    .scene(SceneInfo(name: "empty", gravity: GravityInfo(dx: 0.6, dy: 0.8, magnitude: 0), collisionMode: .items,
                     bodies: [])),
    .snapshot(Snapshot(tick: 1234, time: 20.567, paused: false, clients: 3,
                       bodies: [BodyState(id: 1, x: 412.5, y: 300.25, angle: 0.125, vx: 10.5, vy: -3.25, av: 0.5)],
                       drags: [DragInfo(client: 7, name: "ann", body: 1, x: 400, y: 280, offset: Point(-5.5, 2))])),
    .snapshot(Snapshot(tick: 0, time: 0, paused: true, clients: 0, bodies: [], drags: [])),
    .ack(id: .string("a1"), fields: [("body", .number(12)), ("angle", .number(-0.75)), ("magnitude", .number(1.25))]),
    .ack(id: .number("4.0"), fields: []),
    .ack(id: nil, fields: [("body", .number(3))]),
    .error(ProtocolError(.badValue, "field \"x\" must be a finite number", id: .number("17"))),
    .error(ProtocolError(.serverFull, "server is full (256 clients)")),
    .pong(t: .number(123.456), tick: 99, id: .string("p")),
    .pong(t: nil, tick: 0, id: nil),
    .pong(t: .object([("nested", .array([.null]))]), tick: 9_007_199_254_740_991, id: .number("-1")),
    .bye(reason: "shutdown"),
]

@Test(.timeLimit(.minutes(3))) func everyServerMessageRoundTripsThroughItsLine() {
    for message in messages {
        let bytes = message.encoded()
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(ServerMessage.decode(Array(bytes.dropLast())) == message, "\(String(decoding: bytes, as: UTF8.self))")
    }
}

@Test(.timeLimit(.minutes(3))) func welcomeMatchesTheSpecExampleByteForByte() {
    #expect(text(.welcome(welcome)) == #"{"type":"welcome","protocol":1,"client":7,"server":"dynserver 0.1.0","world":{"width":800,"height":600},"tick_hz":60,"snapshot_hz":30,"auth_required":false}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func welcomeSaysTheHTTPPortAfterTheRoomAndOmitsItWithoutHTTP() {
    var withHTTP = welcome
    withHTTP.room = "main"
    withHTTP.httpPort = 7701
    #expect(text(.welcome(withHTTP)) == #"{"type":"welcome","protocol":1,"client":7,"server":"dynserver 0.1.0","world":{"width":800,"height":600},"tick_hz":60,"snapshot_hz":30,"auth_required":false,"room":"main","http_port":7701}"# + "\n")
    #expect(!text(.welcome(welcome)).contains("http_port"))
    // A port that is no port is a malformed welcome, not a URL with a nonsense port.
    for bad in ["0", "65536", "-1", "80.5", "\"7701\""] {
        let line = #"{"type":"welcome","protocol":1,"client":7,"server":"s","world":{"width":800,"height":600},"tick_hz":60,"snapshot_hz":30,"auth_required":false,"http_port":"# + bad + "}"
        #expect(ServerMessage.decode(Array(line.utf8)) == nil, "\(line)")
    }
}

@Test(.timeLimit(.minutes(3))) func sceneUsesSnakeCaseFieldsAndPolygonPoints() {
    let line = text(.scene(scene))
    #expect(line.hasPrefix(##"{"type":"scene","name":"default","gravity":{"dx":0,"dy":1,"magnitude":1},"collision_mode":"everything","bodies":[{"id":1,"shape":"rect","width":80,"height":80,"elasticity":0,"friction":0,"density":1,"resistance":0,"angular_resistance":0,"allows_rotation":true,"anchored":false,"color":"#e05050","charge":0},"##))
    #expect(line.contains(##""color":"#5050e0","charge":0,"points":[[0,-20],[17.3,10],[-17.3,10]]}"##))
    #expect(line.contains(#""boundaries":[{"id":"ledge","points":[[100,400],[300,420]],"closed":false}]"#))
    #expect(line.contains(#"{"kind":"distance","body":2,"to_body":3,"offset":{"x":0,"y":0},"to_offset":{"x":1,"y":2},"length":50,"frequency":2,"damping":0.3}"#))
    #expect(line.contains(#""snaps":[{"body":2,"point":{"x":400,"y":300},"damping":0.5}],"#))
    #expect(line.hasSuffix(#""fields":[],"bounds":{"enabled":true,"insets":{"top":0,"left":0,"bottom":0,"right":0}},"groups":[]}"# + "\n"))
}

@Test(.timeLimit(.minutes(3))) func errorAckPongAndByeHaveTheSpecShapes() {
    #expect(text(.error(ProtocolError(.badJSON, "invalid UTF-8 at byte 3", id: .number("1.50"))))
        == #"{"type":"error","code":"bad_json","message":"invalid UTF-8 at byte 3","id":1.50}"# + "\n")
    #expect(text(.ack(id: .string("x"), fields: [("body", .number(4))])) == #"{"type":"ack","id":"x","body":4}"# + "\n")
    #expect(text(.pong(t: .number(5), tick: 1234, id: nil)) == #"{"type":"pong","t":5,"tick":1234}"# + "\n")
    #expect(text(.bye(reason: "shutdown")) == #"{"type":"bye","reason":"shutdown"}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func everyErrorCodeRoundTrips() {
    for code in ErrorCode.allCases {
        let message = ServerMessage.error(ProtocolError(code, "m", id: .string("i")))
        #expect(ServerMessage.decode(message.encoded()) == message)
    }
    #expect(ErrorCode.unauthorized.rawValue == "unauthorized")
    #expect(ErrorCode.protocolMismatch.rawValue == "protocol_mismatch")
}

@Test(.timeLimit(.minutes(3))) func serverDecodeIsLenientAboutNumbersButStrictAboutTypes() {
    let lenient = #"{"type":"pong","tick":1.2e3,"t":5.000,"junk":[1]}"#
    #expect(ServerMessage.decode(lenient) == .pong(t: .number(5), tick: 1200, id: nil))
    #expect(ServerMessage.decode(#"{"type":"pong","tick":"12"}"#) == nil)
    #expect(ServerMessage.decode(#"{"type":"pong","tick":-1}"#) == nil)
    #expect(ServerMessage.decode(#"{"type":"error","code":"nope","message":"m"}"#) == nil)
    #expect(ServerMessage.decode(#"{"type":"teleport"}"#) == nil)
    #expect(ServerMessage.decode("not json") == nil)
    #expect(ServerMessage.decode(#"{"type":"snapshot","tick":1,"time":0,"paused":false,"bodies":[{"id":1,"x":0}]}"#) == nil)
    #expect(ServerMessage.decode(#"{"type":"snapshot","tick":1,"time":0.5,"paused":false,"bodies":[]}"#)
        == .snapshot(Snapshot(tick: 1, time: 0.5, paused: false, clients: 0, bodies: [], drags: [])))
}
