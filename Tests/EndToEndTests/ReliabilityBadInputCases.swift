import NetProtocol
import Testing

/// One hostile or odd line and the answer docs/PROTOCOL.md promise for it.
///
/// `$B` in a line stands for a body id that exists in the default scene (filled in at run time).
struct BadInputCase: CustomTestStringConvertible, Sendable {
    enum Answer: Sendable {
        /// An `error` with this code; with `id` when the line carried a usable one.
        case error(ErrorCode, id: MessageID?)
        /// A `pong` echoing `id` whose `t` is the given number (accepted edge cases).
        case pong(id: MessageID, t: Double)
        /// An `ack` echoing `id` (the line is accepted).
        case ack(id: MessageID)
    }

    let kind: String
    let bytes: [UInt8]
    let answer: Answer

    var testDescription: String { kind }

    init(_ kind: String, _ line: String, _ answer: Answer) {
        self.kind = kind
        self.bytes = Array(line.utf8)
        self.answer = answer
    }

    init(_ kind: String, bytes: [UInt8], _ answer: Answer) {
        self.kind = kind
        self.bytes = bytes
        self.answer = answer
    }

    /// The line with `$B` replaced by `body`.
    func line(body: Int) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("$B"), text.utf8.elementsEqual(bytes) else { return bytes }
        return Array(text.replacingOccurrences(of: "$B", with: String(body)).utf8)
    }
}

private func sid(_ text: String) -> MessageID { .string(text) }
private func nid(_ value: Int) -> MessageID { .number(String(value)) }

extension BadInputCase {
    /// Distinct kinds of bad input that need no state beyond the default scene. Each is answered on its own
    /// connection, and the connection must still answer a `ping` afterwards.
    static let stateless: [BadInputCase] = [
        BadInputCase("invalid UTF-8 (0xFF 0xFE in a string)",
                     bytes: Array(#"{"type":"ping","t":""#.utf8) + [0xFF, 0xFE] + Array(#"","id":1}"#.utf8),
                     .error(.badJSON, id: nil)),
        BadInputCase("overlong UTF-8 encoding of '/'",
                     bytes: Array(#"{"type":"ping","t":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8),
                     .error(.badJSON, id: nil)),
        BadInputCase("UTF-8 encoded surrogate (ED A0 80)",
                     bytes: Array(#"{"type":"ping","t":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
                     .error(.badJSON, id: nil)),
        BadInputCase("NUL byte inside a string",
                     bytes: Array(#"{"type":"ping","t":"a"#.utf8) + [0x00] + Array(#"b"}"#.utf8),
                     .error(.badJSON, id: nil)),
        BadInputCase("NUL byte between members",
                     bytes: Array(#"{"type":"ping","#.utf8) + [0x00] + Array(#""id":1}"#.utf8),
                     .error(.badJSON, id: nil)),
        BadInputCase("a line of NUL bytes", bytes: [UInt8](repeating: 0, count: 64), .error(.badJSON, id: nil)),
        BadInputCase("raw tab inside a string", "{\"type\":\"ping\",\"t\":\"a\tb\"}", .error(.badJSON, id: nil)),
        BadInputCase("lone surrogate escape", #"{"type":"ping","t":"\ud800","id":1}"#, .error(.badJSON, id: nil)),
        BadInputCase("JSON nested 10 000 deep",
                     #"{"type":"ping","id":1,"t":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}",
                     .error(.badJSON, id: nil)),
        BadInputCase("objects nested 33 deep (one past the limit)",
                     #"{"type":"ping","t":"# + String(repeating: #"{"a":"#, count: 32) + "1" + String(repeating: "}", count: 33),
                     .error(.badJSON, id: nil)),
        BadInputCase("truncated object", #"{"type":"ping","id":1"#, .error(.badJSON, id: nil)),
        BadInputCase("trailing bytes after the object", #"{"type":"ping","id":1} x"#, .error(.badJSON, id: nil)),
        BadInputCase("a line of spaces", "    ", .error(.badJSON, id: nil)),
        BadInputCase("not JSON at all", "hello server", .error(.badJSON, id: nil)),
        BadInputCase("single-quoted strings", "{'type':'ping'}", .error(.badJSON, id: nil)),
        BadInputCase("number 1e999 overflows", #"{"type":"tap","x":1e999,"y":300,"id":"o1"}"#, .error(.badValue, id: sid("o1"))),
        BadInputCase("number -1e999 overflows", #"{"type":"snap","body":$B,"x":10,"y":-1e999,"id":2}"#, .error(.badValue, id: nid(2))),
        BadInputCase("NaN literal", #"{"type":"tap","x":NaN,"y":300,"id":"n1"}"#, .error(.badValue, id: sid("n1"))),
        BadInputCase("Infinity literal", #"{"type":"gravity","magnitude":Infinity,"id":"n2"}"#, .error(.badValue, id: sid("n2"))),
        BadInputCase("-Infinity literal", #"{"type":"push","body":$B,"angle":-Infinity,"magnitude":1,"id":"n3"}"#, .error(.badValue, id: sid("n3"))),
        BadInputCase("-0 is accepted as 0", #"{"type":"ping","t":-0,"id":"z0"}"#, .pong(id: sid("z0"), t: 0)),
        BadInputCase("1e-400 underflows to 0 and is accepted", #"{"type":"ping","t":1e-400,"id":"u0"}"#, .pong(id: sid("u0"), t: 0)),
        BadInputCase("duplicate key", #"{"type":"tap","x":1,"x":2,"y":3,"id":"d1"}"#, .error(.badMessage, id: sid("d1"))),
        BadInputCase("duplicate type key", #"{"type":"ping","type":"tap","id":"d2"}"#, .error(.badMessage, id: sid("d2"))),
        BadInputCase("bare array", "[1,2,3]", .error(.badMessage, id: nil)),
        BadInputCase("bare string", #""ping""#, .error(.badMessage, id: nil)),
        BadInputCase("bare number", "42", .error(.badMessage, id: nil)),
        BadInputCase("bare null", "null", .error(.badMessage, id: nil)),
        BadInputCase("empty object", "{}", .error(.badMessage, id: nil)),
        BadInputCase("missing type", #"{"id":7,"x":1}"#, .error(.badMessage, id: nid(7))),
        BadInputCase("type is a number", #"{"type":5,"id":8}"#, .error(.badMessage, id: nid(8))),
        BadInputCase("unknown type", #"{"type":"teleport","id":9}"#, .error(.unknownType, id: nid(9))),
        BadInputCase("id is an array", #"{"type":"ping","id":[1]}"#, .error(.badMessage, id: nil)),
        BadInputCase("string where a number belongs", #"{"type":"tap","x":"500","y":300,"id":"s1"}"#, .error(.badMessage, id: sid("s1"))),
        BadInputCase("number where a string belongs", #"{"type":"drag","phase":1,"x":1,"y":1,"id":"s2"}"#, .error(.badMessage, id: sid("s2"))),
        BadInputCase("boolean where a number belongs", #"{"type":"snap","body":$B,"x":true,"y":1,"id":"s3"}"#, .error(.badMessage, id: sid("s3"))),
        BadInputCase("null for an optional field", #"{"type":"tap","x":1,"y":1,"mode":null,"id":"s4"}"#, .error(.badMessage, id: sid("s4"))),
        BadInputCase("huge array for a number", #"{"type":"tap","y":1,"id":"h1","x":["# + Array(repeating: "0", count: 20_000).joined(separator: ",") + "]}",
                     .error(.badMessage, id: sid("h1"))),
        BadInputCase("polygon of 10 000 points",
                     #"{"type":"spawn","shape":"polygon","x":400,"y":300,"id":"h2","points":["# + Array(repeating: "[1,2]", count: 10_000).joined(separator: ",") + "]}",
                     .error(.badValue, id: sid("h2"))),
        BadInputCase("unknown fields are ignored", #"{"type":"ping","id":"f1","t":3,"zzz":{"a":[1,{"b":null}]},"x-extra":true}"#, .pong(id: sid("f1"), t: 3)),
        BadInputCase("unknown fields on a command are ignored", #"{"type":"tap","x":400,"y":300,"id":"f2","color":"nope","extra":[1]}"#, .ack(id: sid("f2"))),
        BadInputCase("body id never issued", #"{"type":"remove","body":987654,"id":"b1"}"#, .error(.unknownBody, id: sid("b1"))),
        BadInputCase("body id not an integer", #"{"type":"remove","body":1.5,"id":"b2"}"#, .error(.badValue, id: sid("b2"))),
        BadInputCase("body id negative", #"{"type":"snap","body":-3,"x":1,"y":1,"id":"b3"}"#, .error(.badValue, id: sid("b3"))),
        BadInputCase("elasticity out of range", #"{"type":"set","body":$B,"elasticity":2,"id":"r1"}"#, .error(.badValue, id: sid("r1"))),
        BadInputCase("density zero", #"{"type":"set","body":$B,"density":0,"id":"r2"}"#, .error(.badValue, id: sid("r2"))),
        BadInputCase("bad colour", #"{"type":"set","body":$B,"color":"red","id":"r3"}"#, .error(.badValue, id: sid("r3"))),
        BadInputCase("size zero", #"{"type":"spawn","shape":"rect","width":0,"height":10,"x":400,"y":300,"id":"r4"}"#, .error(.badValue, id: sid("r4"))),
        BadInputCase("spawn outside the world", #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":-5000,"y":300,"id":"r5"}"#, .error(.badValue, id: sid("r5"))),
        BadInputCase("string over 256 bytes", #"{"type":"scene","id":"r6","name":""# + String(repeating: "x", count: 300) + #""}"#, .error(.badValue, id: sid("r6"))),
        BadInputCase("unknown scene name", #"{"type":"scene","name":"moon","id":"r7"}"#, .error(.badValue, id: sid("r7"))),
        BadInputCase("angle together with dx", #"{"type":"push","body":$B,"angle":1,"magnitude":1,"dx":1,"id":"r8"}"#, .error(.badMessage, id: sid("r8"))),
        BadInputCase("hello with protocol 2", #"{"type":"hello","protocol":2,"id":"p2"}"#, .error(.protocolMismatch, id: sid("p2"))),
        BadInputCase("hello with a fractional protocol", #"{"type":"hello","protocol":1.5,"id":"p3"}"#, .error(.badValue, id: sid("p3"))),
        BadInputCase("drag move without begin", #"{"type":"drag","phase":"move","x":10,"y":10,"id":"g1"}"#, .error(.notDragging, id: sid("g1"))),
        BadInputCase("drag end without begin", #"{"type":"drag","phase":"end","id":"g2"}"#, .error(.notDragging, id: sid("g2"))),
        BadInputCase("drag begin on empty space", #"{"type":"drag","phase":"begin","x":2,"y":2,"id":"g3"}"#, .error(.noBody, id: sid("g3"))),
        BadInputCase("64 KiB + 1 line", #"{"type":"ping","t":""# + String(repeating: "a", count: 65_536) + #""}"#, .error(.lineTooLong, id: nil)),
    ]
}
