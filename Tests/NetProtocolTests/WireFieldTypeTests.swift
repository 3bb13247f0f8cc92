import Testing
@testable import NetProtocol

/// The JSON type a field expects, with values of every other type to send in its place.
private enum Expected {
    case number, string, bool, object, pairs

    var wrongValues: [JSONValue] {
        switch self {
        case .number: return [.string("1"), .bool(true), .null, .array([.number(1)]), .object([("a", .number(1))])]
        case .string: return [.number(1), .bool(true), .null, .array([.string("a")]), .object([])]
        case .bool: return [.number(1), .string("true"), .null, .array([])]
        case .object: return [.number(1), .string("x"), .array([.number(1), .number(2)]), .bool(true), .null]
        case .pairs: return [.number(1), .string("x"), .object([]), .bool(true), .array([.number(1), .number(2), .number(3)])]
        }
    }
}

/// A valid message of each command and the type of each of its fields.
private let cases: [(message: [(String, JSONValue)], fields: [(String, Expected)])] = [
    ([("type", .string("hello")), ("name", .string("ann")), ("token", .string("t")), ("protocol", .number(1))],
     [("name", .string), ("token", .string), ("protocol", .number)]),
    ([("type", .string("tap")), ("x", .number(1)), ("y", .number(2)), ("body", .number(3)), ("mode", .string("instantaneous"))],
     [("x", .number), ("y", .number), ("body", .number), ("mode", .string)]),
    ([("type", .string("push")), ("body", .number(1)), ("angle", .number(0.5)), ("magnitude", .number(2)),
      ("mode", .string("continuous")), ("active", .bool(true)), ("offset", .object([("x", .number(1)), ("y", .number(2))]))],
     [("body", .number), ("angle", .number), ("magnitude", .number), ("mode", .string), ("active", .bool), ("offset", .object)]),
    ([("type", .string("push")), ("body", .number(1)), ("dx", .number(1)), ("dy", .number(2))],
     [("dx", .number), ("dy", .number)]),
    ([("type", .string("drag")), ("phase", .string("begin")), ("x", .number(1)), ("y", .number(2)), ("body", .number(3))],
     [("phase", .string), ("x", .number), ("y", .number), ("body", .number)]),
    ([("type", .string("snap")), ("body", .number(1)), ("x", .number(1)), ("y", .number(2)), ("damping", .number(0.5)),
      ("active", .bool(true))],
     [("body", .number), ("x", .number), ("y", .number), ("damping", .number), ("active", .bool)]),
    ([("type", .string("set")), ("body", .number(1)), ("elasticity", .number(0.5)), ("friction", .number(0.5)),
      ("density", .number(2)), ("resistance", .number(1)), ("angular_resistance", .number(1)),
      ("allows_rotation", .bool(false)), ("anchored", .bool(true)), ("color", .string("#ff0000"))],
     [("body", .number), ("elasticity", .number), ("friction", .number), ("density", .number), ("resistance", .number),
      ("angular_resistance", .number), ("allows_rotation", .bool), ("anchored", .bool), ("color", .string)]),
    ([("type", .string("gravity")), ("dx", .number(0)), ("dy", .number(1)), ("magnitude", .number(1))],
     [("dx", .number), ("dy", .number), ("magnitude", .number)]),
    ([("type", .string("gravity")), ("angle", .number(1)), ("magnitude", .number(1))], [("angle", .number)]),
    ([("type", .string("collision")), ("mode", .string("items"))], [("mode", .string)]),
    ([("type", .string("spawn")), ("shape", .string("rect")), ("width", .number(10)), ("height", .number(20)),
      ("x", .number(1)), ("y", .number(2)), ("angle", .number(0.1)), ("vx", .number(1)), ("vy", .number(2)),
      ("elasticity", .number(0.5)), ("density", .number(1)), ("anchored", .bool(false)), ("color", .string("#00ff00"))],
     [("shape", .string), ("width", .number), ("height", .number), ("x", .number), ("y", .number), ("angle", .number),
      ("vx", .number), ("vy", .number), ("elasticity", .number), ("density", .number), ("anchored", .bool),
      ("color", .string)]),
    ([("type", .string("spawn")), ("shape", .string("polygon")), ("x", .number(1)), ("y", .number(2)),
      ("points", .array([.array([.number(0), .number(0)]), .array([.number(10), .number(0)]), .array([.number(0), .number(10)])]))],
     [("points", .pairs)]),
    ([("type", .string("remove")), ("body", .number(1))], [("body", .number)]),
    ([("type", .string("scene")), ("name", .string("empty"))], [("name", .string)]),
]

private func line(_ members: [(String, JSONValue)]) -> [UInt8] {
    var writer = JSONWriter()
    writer.value(.object(members))
    return writer.bytes
}

@Test(.timeLimit(.minutes(3))) func everyValidCommandOfTheTableDecodes() {
    for (message, _) in cases {
        let result = ClientMessage.decode(line(message + [("id", .number(7))]))
        #expect((try? result.get())?.id == .number("7"), "\(message)")
    }
}

@Test(.timeLimit(.minutes(3))) func everyFieldOfEveryCommandWithTheWrongTypeIsBadMessage() {
    var checked = 0
    for (message, fields) in cases {
        for (field, expected) in fields {
            for wrong in expected.wrongValues {
                let mutated = message.map { $0.0 == field ? ($0.0, wrong) : $0 } + [("id", .string("w"))]
                guard case let .failure(error) = ClientMessage.decode(line(mutated)) else {
                    Issue.record("accepted \(field) = \(wrong) in \(message[0].1)")
                    continue
                }
                #expect(error.code == .badMessage, "\(field) = \(wrong): \(error)")
                #expect(error.message.contains("\"\(field)\""), "\(error.message)")
                #expect(error.id == .string("w"))
                checked += 1
            }
        }
    }
    let fieldCount = cases.reduce(0) { $0 + $1.fields.count }
    #expect(fieldCount == 53)
    #expect(checked == cases.reduce(0) { $0 + $1.fields.reduce(0) { $0 + $1.1.wrongValues.count } })
}

@Test(.timeLimit(.minutes(3))) func wrongTypeMessagesNameTheFieldAndTheTypes() {
    guard case let .failure(failure) = ClientMessage.decode(#"{"type":"tap","x":"12","y":0}"#) else {
        Issue.record("a string x was accepted")
        return
    }
    #expect(failure.message == "field \"x\" must be a number, not a string")
    guard case let .failure(reverse) = ClientMessage.decode(#"{"type":"scene","name":5}"#) else {
        Issue.record("a numeric name was accepted")
        return
    }
    #expect(reverse.message == "field \"name\" must be a string, not a number")
}
