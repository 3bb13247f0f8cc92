import Testing
@testable import NetProtocol

/// Decodes a line and returns its error (nil when it decoded).
private func failure(_ line: String) -> ProtocolError? {
    if case let .failure(error) = ClientMessage.decode(line) { return error }
    return nil
}

private func failure(_ line: [UInt8]) -> ProtocolError? {
    if case let .failure(error) = ClientMessage.decode(line) { return error }
    return nil
}

private func command(_ line: String) -> ClientCommand? {
    try? ClientMessage.decode(line).get().command
}

@Test(.timeLimit(.minutes(3))) func decodeAnswersNonJSONWithBadJSON() {
    #expect(failure("hello there")?.code == .badJSON)
    #expect(failure([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D])?.code == .badJSON)
    #expect(failure(Array("{\"type\":\"ping\"}".utf8) + [0])?.code == .badJSON)
    #expect(failure("{\"type\":\"ping\",\"t\":" + String(repeating: "[", count: 10_000))?.code == .badJSON)
}

@Test(.timeLimit(.minutes(3))) func decodeAnswersNonObjectsWithBadMessage() {
    for line in ["[1,2]", "\"tap\"", "42", "null", "true"] {
        #expect(failure(line)?.code == .badMessage, "\(line)")
    }
}

@Test(.timeLimit(.minutes(3))) func decodeRequiresAStringType() {
    #expect(failure(#"{"x":1}"#) == ProtocolError(.badMessage, "missing field \"type\""))
    #expect(failure(#"{"type":3}"#)?.code == .badMessage)
    #expect(failure(#"{"type":null}"#)?.code == .badMessage)
    #expect(failure(#"{"type":"fly","id":9}"#) == ProtocolError(.unknownType, "unknown message type \"fly\"", id: .number("9")))
}

@Test(.timeLimit(.minutes(3))) func decodeEchoesStringAndNumericIDsAsWritten() throws {
    #expect(try ClientMessage.decode(#"{"type":"ping","id":"abc"}"#).get().id == .string("abc"))
    #expect(try ClientMessage.decode(#"{"id":1.50,"type":"ping"}"#).get().id == .number("1.50"))
    #expect(failure(#"{"type":"tap","id":-7e2,"x":"1","y":2}"#)?.id == .number("-7e2"))
}

@Test(.timeLimit(.minutes(3))) func decodeRejectsIDsOfOtherTypesWithoutEchoingThem() {
    for id in ["true", "null", "[1]", "{\"a\":1}"] {
        let error = failure(#"{"type":"ping","id":"# + id + "}")
        #expect(error?.code == .badMessage)
        #expect(error?.id == nil)
    }
}

@Test(.timeLimit(.minutes(3))) func decodeAnswersOverflowAndNaNWithBadValueAndTheID() {
    #expect(failure(#"{"type":"tap","id":5,"x":1e999,"y":0}"#)
        == ProtocolError(.badValue, "number in field \"x\" overflows a Double", id: .number("5")))
    #expect(failure(#"{"type":"tap","id":"a","x":NaN,"y":0}"#)?.code == .badValue)
    #expect(failure(#"{"type":"tap","id":"a","x":NaN,"y":0}"#)?.id == .string("a"))
    #expect(failure(#"{"type":"ping","id":1e999}"#) == ProtocolError(.badValue, "number in field \"id\" overflows a Double"))
}

@Test(.timeLimit(.minutes(3))) func decodeAcceptsUnderflowAndNegativeZero() throws {
    #expect(command(#"{"type":"tap","x":1e-400,"y":-0}"#) == .tap(x: 0, y: 0, body: nil, mode: .continuous))
    let tap = try #require(command(#"{"type":"tap","x":1,"y":-0}"#))
    guard case let .tap(_, y, _, _) = tap else { Issue.record("not a tap: \(tap)"); return }
    #expect(y.sign == .plus)
}

@Test(.timeLimit(.minutes(3))) func decodeAnswersDuplicateKeysWithBadMessageAndTheID() {
    #expect(failure(#"{"type":"tap","id":"q","x":1,"x":2,"y":0}"#)
        == ProtocolError(.badMessage, "duplicate key \"x\"", id: .string("q")))
    #expect(failure(#"{"type":"ping","id":1,"id":2}"#)?.id == nil)
}

@Test(.timeLimit(.minutes(3))) func decodeIgnoresUnknownFieldsAndHugeArraysInThem() {
    let junk = "[" + Array(repeating: "0", count: 50_000).joined(separator: ",") + "]"
    #expect(command(#"{"type":"tap","x":1,"y":2,"extra":{"deep":[1,2]},"junk":"# + junk + "}")
        == .tap(x: 1, y: 2, body: nil, mode: .continuous))
}

@Test(.timeLimit(.minutes(3))) func decodeAnswersOutOfRangeValuesWithBadValue() {
    let lines = [
        #"{"type":"set","body":1,"elasticity":1.5}"#, #"{"type":"set","body":1,"elasticity":-0.1}"#,
        #"{"type":"set","body":1,"friction":2}"#, #"{"type":"set","body":1,"density":0}"#,
        #"{"type":"set","body":1,"density":-1}"#, #"{"type":"set","body":1,"resistance":-1}"#,
        #"{"type":"set","body":1,"angular_resistance":-0.5}"#, #"{"type":"set","body":1,"color":"red"}"#,
        ##"{"type":"set","body":1,"color":"#12345g"}"##, ##"{"type":"set","body":1,"color":"#fff"}"##,
        #"{"type":"snap","body":1,"x":0,"y":0,"damping":1.5}"#, #"{"type":"snap","body":1,"x":0,"y":0,"damping":-1}"#,
        #"{"type":"remove","body":0}"#, #"{"type":"remove","body":-3}"#, #"{"type":"remove","body":1.5}"#,
        #"{"type":"remove","body":1e300}"#, #"{"type":"tap","x":0,"y":0,"body":0}"#,
        #"{"type":"spawn","shape":"rect","width":0,"height":10,"x":0,"y":0}"#,
        #"{"type":"spawn","shape":"rect","width":10,"height":-5,"x":0,"y":0}"#,
        #"{"type":"spawn","shape":"ellipse","width":100001,"height":10,"x":0,"y":0}"#,
        #"{"type":"spawn","shape":"polygon","points":[[0,0],[1,1]],"x":0,"y":0}"#,
        #"{"type":"spawn","shape":"polygon","points":[[0,0],[0,0],[0,0]],"x":0,"y":0}"#,
        #"{"type":"spawn","shape":"star","width":10,"height":10,"x":0,"y":0}"#,
        #"{"type":"tap","x":0,"y":0,"mode":"sideways"}"#, #"{"type":"drag","phase":"twist","x":0,"y":0}"#,
        #"{"type":"collision","mode":"none"}"#, #"{"type":"hello","protocol":1.5}"#,
        #"{"type":"hello","name":""# + String(repeating: "n", count: 257) + #""}"#,
        #"{"type":"scene","name":""# + String(repeating: "é", count: 129) + #""}"#,
    ]
    for line in lines {
        #expect(failure(line)?.code == .badValue, "\(line)")
    }
    let polygon65 = (0..<65).map { "[\($0),\($0 * $0)]" }.joined(separator: ",")
    #expect(failure(#"{"type":"spawn","shape":"polygon","x":0,"y":0,"points":["# + polygon65 + "]}")?.code == .badValue)
    #expect(failure(#"{"type":"set","body":1,"density":0}"#)?.message == "field \"density\" must be > 0")
}

@Test(.timeLimit(.minutes(3))) func decodeAcceptsBoundaryValues() {
    #expect(command(##"{"type":"set","body":9007199254740991,"elasticity":1,"friction":0,"color":"#A0b1C2"}"##)
        == .set(body: 9_007_199_254_740_991, patch: PropertyPatch(elasticity: 1, friction: 0, color: "#A0b1C2")))
    #expect(command(#"{"type":"spawn","shape":"rect","width":100000,"height":0.001,"x":-1e300,"y":1e300}"#)
        == .spawn(shape: .rect, width: 100_000, height: 0.001, x: -1e300, y: 1e300, angle: nil, vx: nil, vy: nil,
                  patch: PropertyPatch()))
    #expect(command(#"{"type":"hello","name":""# + String(repeating: "n", count: 256) + #""}"#) != nil)
}

@Test(.timeLimit(.minutes(3))) func decodeAnswersIncompleteCommandsWithBadMessage() {
    let lines = [
        #"{"type":"set","body":1}"#, #"{"type":"set","body":1,"unknown":2}"#, #"{"type":"push","body":1}"#,
        #"{"type":"push","body":1,"angle":1}"#, #"{"type":"push","body":1,"dx":1}"#,
        #"{"type":"push","body":1,"angle":1,"magnitude":1,"dx":1,"dy":1}"#, #"{"type":"drag","phase":"begin","x":1}"#,
        #"{"type":"drag","phase":"move","y":1}"#, #"{"type":"drag"}"#, #"{"type":"gravity"}"#,
        #"{"type":"gravity","dx":1}"#, #"{"type":"gravity","dx":1,"dy":0,"angle":1}"#, #"{"type":"snap","body":1,"x":1}"#,
        #"{"type":"snap","x":1,"y":1}"#, #"{"type":"tap","x":1}"#, #"{"type":"collision"}"#, #"{"type":"remove"}"#,
        #"{"type":"scene"}"#, #"{"type":"spawn","width":10,"height":10,"x":0,"y":0}"#,
        #"{"type":"spawn","shape":"rect","height":10,"x":0,"y":0}"#, #"{"type":"spawn","shape":"polygon","x":0,"y":0}"#,
        #"{"type":"spawn","shape":"polygon","points":[[0,0],[1,"a"],[0,1]],"x":0,"y":0}"#,
        #"{"type":"push","body":1,"active":true,"offset":{"x":1}}"#,
    ]
    for line in lines {
        #expect(failure(line)?.code == .badMessage, "\(line)")
    }
    #expect(failure(#"{"type":"tap","x":1}"#)?.message == "missing field \"y\"")
}

@Test(.timeLimit(.minutes(3))) func decodeAcceptsCamelCasePropertyNames() {
    #expect(command(#"{"type":"set","body":2,"angularResistance":3,"allowsRotation":false}"#)
        == .set(body: 2, patch: PropertyPatch(angularResistance: 3, allowsRotation: false)))
}

@Test(.timeLimit(.minutes(3))) func decodeGivesDefaultsAndOptionalForms() {
    #expect(command(#"{"type":"tap","x":1,"y":2}"#) == .tap(x: 1, y: 2, body: nil, mode: .continuous))
    #expect(command(#"{"type":"snap","body":3,"active":false}"#) == .unsnap(body: 3))
    #expect(command(#"{"type":"snap","body":3,"active":true,"x":1,"y":2}"#) == .snap(body: 3, x: 1, y: 2, damping: nil))
    #expect(command(#"{"type":"drag","phase":"end"}"#) == .drag(phase: .end, x: nil, y: nil, body: nil))
    #expect(command(#"{"type":"push","body":4,"active":false}"#)
        == .push(body: 4, direction: nil, mode: nil, active: false, offset: nil))
    #expect(command(#"{"type":"gravity","magnitude":0.5}"#) == .gravity(.magnitude(0.5)))
    #expect(command(#"{"type":"gravity","angle":1.5}"#) == .gravity(.angle(1.5, magnitude: nil)))
    #expect(command(#"{"type":"gravity","dx":1,"dy":0,"magnitude":2}"#) == .gravity(.vector(dx: 1, dy: 0, magnitude: 2)))
    #expect(command(#"{"type":"spawn","shape":"polygon","points":[[-10,-5],[10,-5],[0,15]],"x":1,"y":2}"#)
        == .spawn(shape: .polygon([Point(-10, -5), Point(10, -5), Point(0, 15)]), width: 20, height: 20, x: 1, y: 2,
                  angle: nil, vx: nil, vy: nil, patch: PropertyPatch()))
}
