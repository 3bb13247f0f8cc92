import Testing
@testable import NetProtocol

private func table(_ tick: UInt64, _ bodies: [BodyState]) -> PoseTable {
    bodies.withUnsafeBufferPointer { PoseTable(tick: tick, bodies: $0) }
}

private func text(_ bytes: SharedBytes) -> String { String(decoding: bytes.array, as: UTF8.self) }

private func fullSnapshot(_ tick: UInt64, _ bodies: [BodyState]) -> Snapshot? {
    let bytes = bodies.withUnsafeBufferPointer {
        SnapshotEncoder.encodeShared(tick: tick, time: 0, paused: false, clients: 1, bodies: $0, drags: [])
    }
    guard case let .snapshot(snapshot)? = ServerMessage.decode(bytes.array) else { return nil }
    return snapshot
}

@Test(.timeLimit(.minutes(3))) func keyframeListsEveryBodyAsIntegersWithTheSnapshotsRounding() {
    let bodies = [BodyState(id: 1, x: 412.499, y: 300.254, angle: 0.1254), BodyState(id: 2, x: 800, y: -0.005, angle: -0.0005)]
    let line = text(FrameEncoder.encode(table(7, bodies), base: nil, time: 0.1234, paused: false, clients: 2, drags: []))
    #expect(line == #"{"type":"frame","tick":7,"time":0.123,"base":null,"paused":false,"clients":2,"bodies":[[1,41250,30025,125],[2,80000,-1,-1]],"drags":[]}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func deltaListsOnlyBodiesWhoseRoundedPoseChanged() {
    let before = table(10, [BodyState(id: 1, x: 10, y: 10, angle: 0), BodyState(id: 2, x: 20, y: 20, angle: 0),
                            BodyState(id: 3, x: 30, y: 30, angle: 0)])
    // Body 1 moves less than half a hundredth (same rounding), 2 moves, 3 turns.
    let after = table(12, [BodyState(id: 1, x: 10.004, y: 10, angle: 0), BodyState(id: 2, x: 20.01, y: 20, angle: 0),
                           BodyState(id: 3, x: 30, y: 30, angle: 0.002)])
    let drag = DragInfo(client: 4, name: "ann", body: 2, x: 1, y: 2, offset: Point(0, 0))
    let line = text(FrameEncoder.encode(after, base: before, time: 1, paused: true, clients: 1, drags: [drag]))
    #expect(line == #"{"type":"frame","tick":12,"time":1,"base":10,"paused":true,"clients":1,"bodies":[[2,2001,2000,0],[3,3000,3000,2]],"drags":[{"client":4,"name":"ann","body":2,"x":1,"y":2,"offset":{"x":0,"y":0}}]}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func frameDecodesAndEncodesBackToTheSameLine() throws {
    let line = #"{"type":"frame","tick":12,"time":1.5,"base":10,"paused":false,"clients":3,"bodies":[[2,-2001,2000,7]],"drags":[]}"# + "\n"
    let message = try #require(ServerMessage.decode(line))
    #expect(message == .frame(Frame(tick: 12, time: 1.5, base: 10, paused: false, clients: 3,
                                    bodies: [Frame.Body(id: 2, x: -2001, y: 2000, angle: 7)])))
    #expect(String(decoding: message.encoded(), as: UTF8.self) == line)
}

@Test(.timeLimit(.minutes(3))) func malformedFramesAreNotDecoded() {
    for line in [#"{"type":"frame","tick":1,"time":0,"base":null,"paused":false,"bodies":[[1,2,3]]}"#,
                 #"{"type":"frame","tick":1,"time":0,"base":null,"paused":false,"bodies":[[1,2.5,3,4]]}"#,
                 #"{"type":"frame","tick":1,"time":0,"base":"x","paused":false,"bodies":[]}"#,
                 #"{"type":"frame","tick":1,"time":0,"paused":false,"bodies":{}}"#] {
        #expect(ServerMessage.decode(line) == nil, "\(line)")
    }
}

@Test(.timeLimit(.minutes(3))) func applyingFramesInOrderReproducesFullSnapshotsExactly() throws {
    var applier = FrameApplier()
    var previous: PoseTable?
    var bodies = (1...20).map { BodyState(id: $0, x: Double($0) * 13.337, y: 599.995 - Double($0), angle: -0.0015 * Double($0)) }
    for step in 0..<30 {
        let tick = UInt64(2 * step + 2)
        for i in bodies.indices where (i + step) % 3 == 0 {
            bodies[i].x += 0.0049 * Double(i)
            bodies[i].angle -= 0.00051 * Double(step)
        }
        let current = table(tick, bodies)
        let line = FrameEncoder.encode(current, base: previous, time: 0, paused: false, clients: 1, drags: [])
        guard case let .frame(frame)? = ServerMessage.decode(line.array) else {
            Issue.record("tick \(tick): undecodable frame")
            return
        }
        let rebuilt = try applier.apply(frame)
        let full = try #require(fullSnapshot(tick, bodies))
        #expect(rebuilt.bodies.map { [Double($0.id), $0.x, $0.y, $0.angle] } == full.bodies.map { [Double($0.id), $0.x, $0.y, $0.angle] },
                "tick \(tick)")
        previous = current
    }
}

@Test(.timeLimit(.minutes(3))) func aFrameAgainstAnotherBaseIsRefusedAndChangesNothing() throws {
    var applier = FrameApplier()
    _ = try applier.apply(Frame(tick: 4, time: 0, base: nil, paused: false, clients: 1, bodies: [Frame.Body(id: 1, x: 1, y: 2, angle: 3)]))
    #expect(throws: FrameApplier.Failure.baseMismatch(expected: 4, got: 2)) {
        try applier.apply(Frame(tick: 6, time: 0, base: 2, paused: false, clients: 1, bodies: [Frame.Body(id: 1, x: 9, y: 9, angle: 9)]))
    }
    #expect(throws: FrameApplier.Failure.unknownBody(5)) {
        try applier.apply(Frame(tick: 6, time: 0, base: 4, paused: false, clients: 1, bodies: [Frame.Body(id: 5, x: 9, y: 9, angle: 9)]))
    }
    #expect(applier.tick == 4)
    #expect(applier.bodies() == [BodyState(id: 1, x: 0.01, y: 0.02, angle: 0.003)])
    var fresh = FrameApplier()
    #expect(throws: FrameApplier.Failure.baseMismatch(expected: nil, got: 4)) {
        try fresh.apply(Frame(tick: 6, time: 0, base: 4, paused: false, clients: 1, bodies: []))
    }
}

@Test(.timeLimit(.minutes(3))) func quantisationMatchesTheSnapshotTextForAwkwardValues() throws {
    let values: [Double] = [0.005, -0.005, 0.015, 1.005, 2.675, -2.675, 123456.785, 0.0049999, -0.0050001, .nan, .infinity, 1e-9]
    let bodies = values.enumerated().map { BodyState(id: $0 + 1, x: $1, y: -$1, angle: $1 / 7) }
    let full = try #require(fullSnapshot(1, bodies))
    var applier = FrameApplier()
    let line = FrameEncoder.encode(table(1, bodies), base: nil, time: 0, paused: false, clients: 0, drags: [])
    guard case let .frame(frame)? = ServerMessage.decode(line.array) else {
        Issue.record("undecodable")
        return
    }
    let rebuilt = try applier.apply(frame)
    for (a, b) in zip(rebuilt.bodies, full.bodies) {
        #expect(a.x == b.x && a.y == b.y && a.angle == b.angle, "\(a) vs \(b)")
    }
}
