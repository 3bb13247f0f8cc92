import NetProtocol
import Testing

extension EndToEnd {
    /// Bad input: every field of every command, given a value of each wrong JSON type, is answered
    /// with `bad_message` carrying the command's id, and changes nothing (no `ack` ever comes).
    @Suite(.serialized)
    struct ReliabilityWrongTypeTests {
        /// A JSON type a field expects.
        enum FieldType { case number, string, bool, object, array }

        /// A command that is valid as written; each listed field is replaced in turn by wrong-typed values.
        struct Template {
            let type: String
            let members: [(String, String, FieldType)]
        }

        static let templates: [Template] = [
            Template(type: "hello", members: [("name", #""bob""#, .string), ("token", #""t""#, .string), ("protocol", "1", .number)]),
            Template(type: "tap", members: [("x", "400", .number), ("y", "300", .number), ("body", "$B", .number),
                                            ("mode", #""instantaneous""#, .string)]),
            Template(type: "push", members: [("body", "$B", .number), ("angle", "1", .number), ("magnitude", "0.1", .number),
                                             ("mode", #""continuous""#, .string), ("active", "true", .bool),
                                             ("offset", #"{"x":1,"y":2}"#, .object)]),
            Template(type: "push", members: [("body", "$B", .number), ("dx", "0.1", .number), ("dy", "0", .number)]),
            Template(type: "drag", members: [("phase", #""begin""#, .string), ("x", "400", .number), ("y", "300", .number),
                                             ("body", "$B", .number)]),
            Template(type: "snap", members: [("body", "$B", .number), ("x", "400", .number), ("y", "300", .number),
                                             ("damping", "0.5", .number)]),
            Template(type: "snap", members: [("body", "$B", .number), ("active", "false", .bool)]),
            Template(type: "set", members: [("body", "$B", .number), ("elasticity", "0.5", .number), ("friction", "0.5", .number),
                                            ("density", "2", .number), ("resistance", "1", .number),
                                            ("angular_resistance", "1", .number), ("allows_rotation", "true", .bool),
                                            ("anchored", "false", .bool), ("color", ##""#ff0000""##, .string)]),
            Template(type: "set", members: [("body", "$B", .number), ("angularResistance", "1", .number),
                                            ("allowsRotation", "false", .bool)]),
            Template(type: "gravity", members: [("dx", "0", .number), ("dy", "1", .number), ("magnitude", "1", .number)]),
            Template(type: "gravity", members: [("angle", "1.5", .number), ("magnitude", "1", .number)]),
            Template(type: "collision", members: [("mode", #""everything""#, .string)]),
            Template(type: "spawn", members: [("shape", #""rect""#, .string), ("width", "20", .number), ("height", "20", .number),
                                              ("x", "400", .number), ("y", "100", .number), ("angle", "0.5", .number),
                                              ("vx", "1", .number), ("vy", "1", .number), ("elasticity", "0.5", .number),
                                              ("friction", "0.1", .number), ("density", "1", .number), ("resistance", "0", .number),
                                              ("angular_resistance", "0", .number), ("allows_rotation", "true", .bool),
                                              ("anchored", "false", .bool), ("color", ##""#00ff00""##, .string)]),
            Template(type: "spawn", members: [("shape", #""polygon""#, .string), ("points", "[[0,-10],[10,10],[-10,10]]", .array),
                                              ("x", "400", .number), ("y", "100", .number)]),
            Template(type: "remove", members: [("body", "$B", .number)]),
            Template(type: "scene", members: [("name", #""default""#, .string)]),
        ]

        static func wrongValues(for type: FieldType) -> [String] {
            let all: [(FieldType, String)] = [(.number, "7"), (.string, #""7""#), (.bool, "true"), (.object, #"{"v":7}"#),
                                              (.array, "[7]"), (.number, "null")]
            // `null` is wrong for every field (an optional field given as null is bad_message too).
            return all.filter { $0.0 != type || $0.1 == "null" }.map(\.1)
        }

        /// Every (line, description) of the matrix: one field of one template made wrong.
        static func wrongLines(body: Int) -> [(line: String, what: String)] {
            var lines: [(String, String)] = []
            for template in templates {
                for (index, member) in template.members.enumerated() {
                    for wrong in wrongValues(for: member.2) {
                        var fields = [#""type":"\#(template.type)""#]
                        for (other, value) in template.members.enumerated() {
                            let text = other == index ? wrong : value.1.replacingOccurrences(of: "$B", with: String(body))
                            fields.append(#""\#(value.0)":\#(text)"#)
                        }
                        lines.append(("{" + fields.joined(separator: ",") + "}", "\(template.type).\(member.0) = \(wrong)"))
                    }
                }
            }
            return lines
        }

        @Test(.timeLimit(.minutes(15))) func everyFieldOfEveryCommandWithAWrongTypeIsBadMessage() throws {
            let server = try ServerProcess(["--rate", "100000", "--burst", "100000"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let body = try #require(scene.bodies.first { !$0.anchored }?.id)
            let cases = Self.wrongLines(body: body)
            #expect(cases.count >= 250, "\(cases.count) wrong-typed fields")
            for (index, item) in cases.enumerated() {
                let id = MessageID.number(String(index + 1))
                let line = String(item.line.dropLast()) + ",\"id\":\(index + 1)}"
                guard case let .error(error)? = try client.request(line, id: id) else {
                    Issue.record("\(item.what): no error answer")
                    continue
                }
                #expect(error.code == .badMessage, "\(item.what): \(error.code.rawValue) \(error.message)")
            }
            #expect(client.answersPing())
        }

        @Test(.timeLimit(.minutes(15))) func theTemplatesThemselvesAreAccepted() throws {
            // Guards the matrix: the only thing wrong in each of its lines is the replaced field.
            let server = try ServerProcess(["--rate", "100000", "--burst", "100000"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let body = try #require(scene.bodies.first { !$0.anchored }?.id)
            for (index, template) in Self.templates.enumerated() where template.type != "remove" && template.type != "scene" {
                let fields = [#""type":"\#(template.type)""#, #""id":\#(index + 1)"#]
                    + template.members.map { #""\#($0.0)":\#($0.1.replacingOccurrences(of: "$B", with: String(body)))"# }
                let answer = try client.request("{" + fields.joined(separator: ",") + "}", id: .number(String(index + 1)))
                guard case .ack? = answer else {
                    Issue.record("template \(template.type) \(template.members.map(\.0)) not accepted: \(String(describing: answer))")
                    continue
                }
            }
        }
    }
}
