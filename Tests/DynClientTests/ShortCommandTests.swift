import NetProtocol
import Testing
@testable import dynclient

/// The short syntax (docs/PROTOCOL.md, "Short syntax"): every command with the exact line it sends, and every
/// kind of mistake with the message the user reads (nothing is sent).
@Suite struct ShortCommandTests {
    static let context = ShortContext(selected: 7, cursor: Point(120, 80), pingTime: 12.5)

    /// The exact wire line `input` sends (without its `\n`), parsed with selection 7 and cursor (120, 80).
    private func json(_ input: String, context: ShortContext = context) throws -> String {
        let parsed = try ShortCommand.parse(input, context: context)
        guard let bytes = parsed.bytes else {
            Issue.record("\(input) should send")
            return ""
        }
        #expect(bytes.last == 0x0A)
        let line = String(decoding: bytes.dropLast(), as: UTF8.self)
        // What we send is what the server reads back.
        if case let .command(message) = parsed { #expect(ClientMessage.decode(line) == .success(message), "\(input)") }
        return line
    }

    private func refused(_ input: String, context: ShortContext = context) -> String {
        do {
            _ = try ShortCommand.parse(input, context: context)
            Issue.record("\(input) should be refused")
            return ""
        } catch {
            return error.message
        }
    }

    @Test func scene() throws {
        #expect(try json("scene snap") == #"{"type":"scene","name":"snap"}"#)
    }

    @Test func collision() throws {
        #expect(try json("collision items") == #"{"type":"collision","mode":"items"}"#)
        #expect(try json("collision boundaries") == #"{"type":"collision","mode":"boundaries"}"#)
        #expect(try json("collision everything") == #"{"type":"collision","mode":"everything"}"#)
    }

    @Test func gravityAsAngleVectorOrMagnitude() throws {
        #expect(try json("gravity 0 2") == #"{"type":"gravity","angle":0,"magnitude":2}"#)
        #expect(try json("gravity 180deg 1") == #"{"type":"gravity","angle":3.141592653589793,"magnitude":1}"#)
        #expect(try json("gravity xy 0 -1") == #"{"type":"gravity","dx":0,"dy":-1}"#)
        #expect(try json("gravity 0") == #"{"type":"gravity","magnitude":0}"#)
    }

    @Test func spawnAtTheCursorOrAtAPoint() throws {
        #expect(try json("spawn rect 40 30") ==
            #"{"type":"spawn","shape":"rect","width":40,"height":30,"x":120,"y":80}"#)
        #expect(try json("spawn ellipse 50 50 300 200 elasticity=0.9 color=#ff0000") ==
            ##"{"type":"spawn","shape":"ellipse","width":50,"height":50,"x":300,"y":200,"elasticity":0.9,"color":"#ff0000"}"##)
        #expect(try json("spawn box 10 10 1 2 angle=90deg vx=5 vy=-5 anchored=true") ==
            #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":1,"y":2,"angle":1.5707963267948966,"vx":5,"vy":-5,"anchored":true}"#)
    }

    @Test func removeTheSelectionOrAnID() throws {
        #expect(try json("remove") == #"{"type":"remove","body":7}"#)
        #expect(try json("remove 12") == #"{"type":"remove","body":12}"#)
        #expect(try json("remove #12") == #"{"type":"remove","body":12}"#)
    }

    @Test func setPropertiesOfTheSelectionOrAnID() throws {
        #expect(try json("set elasticity 0.8") == #"{"type":"set","body":7,"elasticity":0.8}"#)
        #expect(try json("set 3 friction 0.5 allows_rotation false") ==
            #"{"type":"set","body":3,"friction":0.5,"allows_rotation":false}"#)
        #expect(try json("set 3 density=2 resistance=1 angular_resistance=0.5 anchored=on color=00ff00") ==
            ##"{"type":"set","body":3,"density":2,"resistance":1,"angular_resistance":0.5,"anchored":true,"color":"#00ff00"}"##)
    }

    @Test func tap() throws {
        #expect(try json("tap 400 300") == #"{"type":"tap","x":400,"y":300,"mode":"continuous"}"#)
        #expect(try json("  tap\t400.5  -3 instantaneous ") == #"{"type":"tap","x":400.5,"y":-3,"mode":"instantaneous"}"#)
        #expect(try json("tap 1 2 body=4") == #"{"type":"tap","x":1,"y":2,"body":4,"mode":"continuous"}"#)
    }

    @Test func push() throws {
        #expect(try json("push 3 0 1 instantaneous") ==
            #"{"type":"push","body":3,"angle":0,"magnitude":1,"mode":"instantaneous"}"#)
        #expect(try json("push 3 1.5 -2") == #"{"type":"push","body":3,"angle":1.5,"magnitude":-2}"#)
        #expect(try json("push 90deg 1") == #"{"type":"push","body":7,"angle":1.5707963267948966,"magnitude":1}"#)
        #expect(try json("push dx=1 dy=-2 offset=5,0") ==
            #"{"type":"push","body":7,"dx":1,"dy":-2,"offset":{"x":5,"y":0}}"#)
        #expect(try json("push 4 active=false") == #"{"type":"push","body":4,"active":false}"#)
    }

    @Test func drag() throws {
        #expect(try json("drag begin 400 300") == #"{"type":"drag","phase":"begin","x":400,"y":300}"#)
        #expect(try json("drag begin 400 300 body=2") == #"{"type":"drag","phase":"begin","x":400,"y":300,"body":2}"#)
        #expect(try json("drag move 410 280") == #"{"type":"drag","phase":"move","x":410,"y":280}"#)
        #expect(try json("drag end") == #"{"type":"drag","phase":"end"}"#)
    }

    @Test func snapAndUnsnap() throws {
        #expect(try json("snap 3 200 150") == #"{"type":"snap","body":3,"x":200,"y":150}"#)
        #expect(try json("snap 200 150 damping=0.9") == #"{"type":"snap","body":7,"x":200,"y":150,"damping":0.9}"#)
        #expect(try json("snap off") == #"{"type":"snap","body":7,"active":false}"#)
        #expect(try json("snap 3 off") == #"{"type":"snap","body":3,"active":false}"#)
    }

    @Test func subscribe() throws {
        #expect(try json("subscribe contacts=on snapshots=none") ==
            #"{"type":"subscribe","contacts":true,"snapshots":"none"}"#)
        #expect(try json("subscribe notices=off hz=10") == #"{"type":"subscribe","notices":false,"snapshot_hz":10}"#)
    }

    @Test func helloAndPing() throws {
        #expect(try json("hello bob token=s3cret") == #"{"type":"hello","name":"bob","token":"s3cret","protocol":1}"#)
        #expect(try json("ping") == #"{"type":"ping","t":12.5}"#)
    }

    @Test func trailingIDSetsTheMessageID() throws {
        #expect(try json("scene snap id=load-1") == #"{"type":"scene","id":"load-1","name":"snap"}"#)
        #expect(try json("remove id=42") == #"{"type":"remove","id":42,"body":7}"#)
        #expect(try json("ping id=p") == #"{"type":"ping","id":"p","t":12.5}"#)
    }

    @Test func waitBlankCommentAndRawJSON() throws {
        #expect(try ShortCommand.parse("wait 500") == .wait(milliseconds: 500))
        #expect(try ShortCommand.parse("   ") == .nothing)
        #expect(try ShortCommand.parse("# a comment") == .nothing)
        #expect(try json(" {\"type\":\"gravity\",\"angle\":0} ") == "{\"type\":\"gravity\",\"angle\":0}")
        #expect(try ShortCommand.parse("{not json") == .raw(Array("{not json\n".utf8)))
    }

    @Test func leftOutIDWithoutASelectionIsRefused() {
        let none = ShortContext()
        #expect(refused("remove", context: none) == "remove: no item selected: give its ID; expected remove [ID]")
        #expect(refused("set elasticity 1", context: none).hasPrefix("set: no item selected"))
        #expect(refused("spawn rect 10 10", context: none) ==
            "spawn: give X Y (there is no cursor here); expected spawn rect|ellipse W H [X Y] [angle=A] [vx=V] [vy=V] [PROP=VALUE...]")
    }

    @Test func everyMistakeIsNamed() {
        let cases: [(String, String)] = [
            ("tap 1", "tap: 1 argument is not what it takes"),
            ("tap x 2", "tap: X \"x\" is not a finite number"),
            ("tap 1 nan", "tap: Y \"nan\" is not a finite number"),
            ("tap 1 2 mode=sideways", "tap: mode=sideways: expected continuous or instantaneous"),
            ("tap 1 2 speed=3", "tap: unknown option speed="),
            ("tap 1 2 body=1 body=2", "tap: body= is given twice"),
            ("drag hold 1 2", "drag: expected begin, move or end"),
            ("drag end 1 2", "drag: 2 arguments is not what it takes"),
            ("drag move 1", "drag: 1 argument is not what it takes"),
            ("snap x 2 3", "snap: ID \"x\" is not an item id"),
            ("push 1 2 3 4", "push: 4 arguments is not what it takes"),
            ("push 3", "push: give ANGLE MAGNITUDE or dx= dy="),
            ("push", "push: give ANGLE MAGNITUDE or dx= dy="),
            ("ping 3", "ping: 1 argument is not what it takes"),
            ("wait -5", "wait: \"-5\" is not a whole number of milliseconds"),
            ("scene", "scene: arguments missing"),
            ("collision some", "collision: \"some\" is not items, boundaries or everything"),
            ("gravity 1 2 3", "gravity: 3 arguments is not what it takes"),
            ("gravity xy 1", "gravity: 1 argument is not what it takes"),
            ("gravity 1 inf", "gravity: MAGNITUDE \"inf\" is not a finite number"),
            ("spawn hexagon 1 1", "spawn: \"hexagon\" is not rect or ellipse"),
            ("spawn rect 10", "spawn: 2 arguments is not what it takes"),
            ("spawn rect 10 10 5", "spawn: 4 arguments is not what it takes"),
            ("spawn rect 10 10 springiness=1", "spawn: \"springiness\" is not a property"),
            ("set elasticity", "set: give each PROP a VALUE"),
            ("set", "set: give at least one PROP VALUE"),
            ("set elasticity 1.5", "set: elasticity 1.5 is outside 0..1"),
            ("set density 0", "set: density 0 is outside above 0"),
            ("set resistance -1", "set: resistance -1 is outside 0 or more"),
            ("set anchored maybe", "set: anchored \"maybe\" is not true or false"),
            ("set color red", "set: color \"red\" is not #rrggbb"),
            ("remove 1 2", "remove: 1 argument is not what it takes"),
            ("subscribe", "subscribe: say what to change"),
            ("subscribe snapshots=some", "subscribe: snapshots=some: expected full, compact or none"),
            ("subscribe hz=0", "subscribe: hz: 0.0 is below 1"),
            ("hello a b", "hello: 2 arguments is not what it takes"),
            ("jump 1 2", "unknown command \"jump\""),
            ("id=5", "id= needs a command before it"),
            ("ping id=", "id=: give a name or number after id="),
        ]
        for (input, start) in cases {
            let message = refused(input)
            #expect(message.hasPrefix(start), "\(input): \(message)")
        }
    }

    @Test func everyCommandWordHasAFormAndParsesSomething() {
        for word in ShortCommand.commandWords {
            #expect(ShortCommand.forms[word] != nil, "\(word)")
            #expect(!refused(word + " 1 2 3 4 5 6 7 8 9").hasPrefix("unknown command"), "\(word)")
        }
    }
}
