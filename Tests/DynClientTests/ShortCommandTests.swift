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

    @Test(.timeLimit(.minutes(3))) func scene() throws {
        #expect(try json("scene snap") == #"{"type":"scene","name":"snap"}"#)
    }

    @Test(.timeLimit(.minutes(3))) func collision() throws {
        #expect(try json("collision items") == #"{"type":"collision","mode":"items"}"#)
        #expect(try json("collision boundaries") == #"{"type":"collision","mode":"boundaries"}"#)
        #expect(try json("collision everything") == #"{"type":"collision","mode":"everything"}"#)
    }

    @Test(.timeLimit(.minutes(3))) func gravityAsAngleVectorOrMagnitude() throws {
        #expect(try json("gravity 0 2") == #"{"type":"gravity","angle":0,"magnitude":2}"#)
        #expect(try json("gravity 180deg 1") == #"{"type":"gravity","angle":3.141592653589793,"magnitude":1}"#)
        #expect(try json("gravity xy 0 -1") == #"{"type":"gravity","dx":0,"dy":-1}"#)
        #expect(try json("gravity 0") == #"{"type":"gravity","magnitude":0}"#)
    }

    @Test(.timeLimit(.minutes(3))) func spawnAtTheCursorOrAtAPoint() throws {
        #expect(try json("spawn rect 40 30") ==
            #"{"type":"spawn","shape":"rect","width":40,"height":30,"x":120,"y":80}"#)
        #expect(try json("spawn ellipse 50 50 300 200 elasticity=0.9 color=#ff0000") ==
            ##"{"type":"spawn","shape":"ellipse","width":50,"height":50,"x":300,"y":200,"elasticity":0.9,"color":"#ff0000"}"##)
        #expect(try json("spawn box 10 10 1 2 angle=90deg vx=5 vy=-5 anchored=true") ==
            #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":1,"y":2,"angle":1.5707963267948966,"vx":5,"vy":-5,"anchored":true}"#)
    }

    @Test(.timeLimit(.minutes(3))) func removeTheSelectionOrAnID() throws {
        #expect(try json("remove") == #"{"type":"remove","body":7}"#)
        #expect(try json("remove 12") == #"{"type":"remove","body":12}"#)
        #expect(try json("remove #12") == #"{"type":"remove","body":12}"#)
    }

    @Test(.timeLimit(.minutes(3))) func setPropertiesOfTheSelectionOrAnID() throws {
        #expect(try json("set elasticity 0.8") == #"{"type":"set","body":7,"elasticity":0.8}"#)
        #expect(try json("set 3 friction 0.5 allows_rotation false") ==
            #"{"type":"set","body":3,"friction":0.5,"allows_rotation":false}"#)
        #expect(try json("set 3 density=2 resistance=1 angular_resistance=0.5 anchored=on color=00ff00") ==
            ##"{"type":"set","body":3,"density":2,"resistance":1,"angular_resistance":0.5,"anchored":true,"color":"#00ff00"}"##)
    }

    @Test(.timeLimit(.minutes(3))) func tap() throws {
        #expect(try json("tap 400 300") == #"{"type":"tap","x":400,"y":300,"mode":"continuous"}"#)
        #expect(try json("  tap\t400.5  -3 instantaneous ") == #"{"type":"tap","x":400.5,"y":-3,"mode":"instantaneous"}"#)
        #expect(try json("tap 1 2 body=4") == #"{"type":"tap","x":1,"y":2,"body":4,"mode":"continuous"}"#)
    }

    @Test(.timeLimit(.minutes(3))) func push() throws {
        #expect(try json("push 3 0 1 instantaneous") ==
            #"{"type":"push","body":3,"angle":0,"magnitude":1,"mode":"instantaneous"}"#)
        #expect(try json("push 3 1.5 -2") == #"{"type":"push","body":3,"angle":1.5,"magnitude":-2}"#)
        #expect(try json("push 90deg 1") == #"{"type":"push","body":7,"angle":1.5707963267948966,"magnitude":1}"#)
        #expect(try json("push dx=1 dy=-2 offset=5,0") ==
            #"{"type":"push","body":7,"dx":1,"dy":-2,"offset":{"x":5,"y":0}}"#)
        #expect(try json("push 4 active=false") == #"{"type":"push","body":4,"active":false}"#)
    }

    @Test(.timeLimit(.minutes(3))) func drag() throws {
        #expect(try json("drag begin 400 300") == #"{"type":"drag","phase":"begin","x":400,"y":300}"#)
        #expect(try json("drag begin 400 300 body=2") == #"{"type":"drag","phase":"begin","x":400,"y":300,"body":2}"#)
        #expect(try json("drag move 410 280") == #"{"type":"drag","phase":"move","x":410,"y":280}"#)
        #expect(try json("drag end") == #"{"type":"drag","phase":"end"}"#)
    }

    @Test(.timeLimit(.minutes(3))) func snapAndUnsnap() throws {
        #expect(try json("snap 3 200 150") == #"{"type":"snap","body":3,"x":200,"y":150}"#)
        #expect(try json("snap 200 150 damping=0.9") == #"{"type":"snap","body":7,"x":200,"y":150,"damping":0.9}"#)
        #expect(try json("snap off") == #"{"type":"snap","body":7,"active":false}"#)
        #expect(try json("snap 3 off") == #"{"type":"snap","body":3,"active":false}"#)
    }

    @Test(.timeLimit(.minutes(3))) func velocity() throws {
        #expect(try json("velocity 120 -40") == #"{"type":"velocity","body":7,"vx":120,"vy":-40,"add":true}"#)
        #expect(try json("velocity 3 120 -40 add=false") == #"{"type":"velocity","body":3,"vx":120,"vy":-40,"add":false}"#)
        #expect(try json("velocity av=2") == #"{"type":"velocity","body":7,"av":2,"add":true}"#)
    }

    @Test(.timeLimit(.minutes(3))) func attachToAnAnchorOrAnItem() throws {
        #expect(try json("attach 400 100") == #"{"type":"attach","body":7,"anchor":{"x":400,"y":100},"kind":"distance"}"#)
        #expect(try json("attach 3 400 100 length=50 frequency=2 damping=0.3 offset=0,-10") ==
            #"{"type":"attach","body":3,"offset":{"x":0,"y":-10},"anchor":{"x":400,"y":100},"kind":"distance","length":50,"frequency":2,"damping":0.3}"#)
        #expect(try json("attach 3 to=4 to_offset=5,0 kind=pin point=300,200 range=-1,1 torque=0.5") ==
            #"{"type":"attach","body":3,"to_body":4,"to_offset":{"x":5,"y":0},"kind":"pin","range":[-1,1],"point":{"x":300,"y":200},"friction_torque":0.5}"#)
        #expect(try json("attach 400 300 kind=sliding axis=1,0 range=-50,50") ==
            #"{"type":"attach","body":7,"anchor":{"x":400,"y":300},"kind":"sliding","axis":{"dx":1,"dy":0},"range":[-50,50]}"#)
    }

    @Test(.timeLimit(.minutes(3))) func anchorAndDetach() throws {
        #expect(try json("anchor 2 350 120") == #"{"type":"anchor","attachment":2,"x":350,"y":120}"#)
        #expect(try json("detach 2") == #"{"type":"detach","attachment":2}"#)
    }

    @Test(.timeLimit(.minutes(3))) func fieldCreateUpdateRemove() throws {
        #expect(try json("field vortex 400 300 strength=2 radius=150") ==
            #"{"type":"field","kind":"vortex","x":400,"y":300,"strength":2,"region":{"radius":150}}"#)
        #expect(try json("field linear_gravity 0 0 direction=1,0 size=200,100 bodies=3,4 falloff=1 min_radius=5") ==
            #"{"type":"field","kind":"linear_gravity","x":0,"y":0,"falloff":1,"min_radius":5,"region":{"width":200,"height":100},"direction":{"dx":1,"dy":0},"bodies":[3,4]}"#)
        #expect(try json("field noise 10 20 smoothness=0.5 animation_speed=2") ==
            #"{"type":"field","kind":"noise","x":10,"y":20,"smoothness":0.5,"animation_speed":2}"#)
        #expect(try json("field 5 420 310") == #"{"type":"field","field":5,"x":420,"y":310}"#)
        #expect(try json("field 5 strength=-1") == #"{"type":"field","field":5,"strength":-1}"#)
        #expect(try json("unfield 5") == #"{"type":"unfield","field":5}"#)
    }

    @Test(.timeLimit(.minutes(3))) func boundaryAndBounds() throws {
        #expect(try json("boundary ledge 100,400 300,420") ==
            #"{"type":"boundary","boundary":"ledge","points":[[100,400],[300,420]],"closed":false}"#)
        #expect(try json("boundary box 0,0 10,0 10,10 closed") ==
            #"{"type":"boundary","boundary":"box","points":[[0,0],[10,0],[10,10]],"closed":true}"#)
        #expect(try json("boundary ledge remove") == #"{"type":"boundary","boundary":"ledge","remove":true}"#)
        #expect(try json("bounds off") == #"{"type":"bounds","enabled":false}"#)
        #expect(try json("bounds on insets=10,20,30,40") ==
            #"{"type":"bounds","enabled":true,"insets":{"top":10,"left":20,"bottom":30,"right":40}}"#)
    }

    @Test(.timeLimit(.minutes(3))) func groupsAndTime() throws {
        #expect(try json("group 3 4 #5") == #"{"type":"group","bodies":[3,4,5]}"#)
        #expect(try json("ungroup 1") == #"{"type":"ungroup","group":1}"#)
        #expect(try json("pause") == #"{"type":"pause"}"#)
        #expect(try json("resume") == #"{"type":"resume"}"#)
        #expect(try json("step") == #"{"type":"step","ticks":1}"#)
        #expect(try json("step 60") == #"{"type":"step","ticks":60}"#)
        #expect(try json("set charge -2") == #"{"type":"set","body":7,"charge":-2}"#)
    }

    @Test(.timeLimit(.minutes(3))) func subscribe() throws {
        #expect(try json("subscribe contacts=on snapshots=none") ==
            #"{"type":"subscribe","contacts":true,"snapshots":"none"}"#)
        #expect(try json("subscribe notices=off hz=10") == #"{"type":"subscribe","notices":false,"snapshot_hz":10}"#)
    }

    @Test(.timeLimit(.minutes(3))) func helloAndPing() throws {
        #expect(try json("hello bob token=s3cret") == #"{"type":"hello","name":"bob","token":"s3cret","protocol":1}"#)
        #expect(try json("ping") == #"{"type":"ping","t":12.5}"#)
    }

    @Test(.timeLimit(.minutes(3))) func trailingIDSetsTheMessageID() throws {
        #expect(try json("scene snap id=load-1") == #"{"type":"scene","id":"load-1","name":"snap"}"#)
        #expect(try json("remove id=42") == #"{"type":"remove","id":42,"body":7}"#)
        #expect(try json("ping id=p") == #"{"type":"ping","id":"p","t":12.5}"#)
    }

    @Test(.timeLimit(.minutes(3))) func waitBlankCommentAndRawJSON() throws {
        #expect(try ShortCommand.parse("wait 500") == .wait(milliseconds: 500))
        #expect(try ShortCommand.parse("   ") == .nothing)
        #expect(try ShortCommand.parse("# a comment") == .nothing)
        #expect(try json(" {\"type\":\"gravity\",\"angle\":0} ") == "{\"type\":\"gravity\",\"angle\":0}")
        #expect(try ShortCommand.parse("{not json") == .raw(Array("{not json\n".utf8)))
    }

    @Test(.timeLimit(.minutes(3))) func leftOutIDWithoutASelectionIsRefused() {
        let none = ShortContext()
        #expect(refused("remove", context: none) == "remove: no item selected: give its ID; expected remove [ID]")
        #expect(refused("set elasticity 1", context: none).hasPrefix("set: no item selected"))
        #expect(refused("spawn rect 10 10", context: none) ==
            "spawn: give X Y (there is no cursor here); expected spawn rect|ellipse W H [X Y] [angle=A] [vx=V] [vy=V] [PROP=VALUE...]")
    }

    @Test(.timeLimit(.minutes(3))) func everyMistakeIsNamed() {
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
            ("wait 5 id=w", "wait: sends nothing, so id= has nothing to name"),
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
            ("velocity", "velocity: give VX VY or av="),
            ("velocity 1 2 3 4", "velocity: 4 arguments is not what it takes"),
            ("velocity 1 2 add=maybe", "velocity: add=maybe: expected true or false"),
            ("attach", "attach: arguments missing"),
            ("attach 1 2 kind=spring", "attach: kind=spring: expected distance, limit, fixed, sliding, pin"),
            ("attach 1 2 to_offset=1,1", "attach: to_offset= needs to="),
            ("attach 1 2 range=1", "attach: range=1: expected X,Y"),
            ("anchor 1 2", "anchor: 2 arguments is not what it takes"),
            ("anchor x 1 2", "anchor: ATTACHMENT \"x\" is not an id"),
            ("detach", "detach: arguments missing"),
            ("field", "field: give a KIND"),
            ("field lava 1 2", "field: \"lava\" is not a field kind"),
            ("field vortex", "field: give X Y for a new field"),
            ("field vortex 1", "field: 2 arguments is not what it takes"),
            ("field vortex 1 2 radius=5 size=1,1", "field: give radius= or size=, not both"),
            ("field vortex 1 2 bodies=1,x", "field: bodies=1,x: expected ID,ID,..."),
            ("field 5", "field: say what to change"),
            ("unfield", "unfield: arguments missing"),
            ("boundary", "boundary: give a NAME"),
            ("boundary ledge 1,1", "boundary: give at least two points X,Y"),
            ("boundary ledge 1,1 2", "boundary: \"2\" is not a point X,Y"),
            ("bounds", "bounds: give on, off or insets="),
            ("bounds maybe", "bounds: \"maybe\" is not on or off"),
            ("bounds insets=1,2,3", "bounds: insets=1,2,3: expected TOP,LEFT,BOTTOM,RIGHT"),
            ("group 3", "group: give at least two item ids"),
            ("group 3 x", "group: ID \"x\" is not an id"),
            ("ungroup", "ungroup: arguments missing"),
            ("pause now", "pause: 1 argument is not what it takes"),
            ("resume 1", "resume: 1 argument is not what it takes"),
            ("step 0", "step: TICKS \"0\" is not a whole number from 1 to 600"),
            ("step 601", "step: TICKS \"601\" is not a whole number from 1 to 600"),
            ("set charge x", "set: charge \"x\" is not a finite number"),
            ("jump 1 2", "unknown command \"jump\""),
            ("id=5", "id= needs a command before it"),
            ("ping id=", "id=: give a name or number after id="),
        ]
        for (input, start) in cases {
            let message = refused(input)
            #expect(message.hasPrefix(start), "\(input): \(message)")
        }
    }

    @Test(.timeLimit(.minutes(3))) func everyCommandWordHasAFormAndParsesSomething() {
        for word in ShortCommand.commandWords {
            #expect(ShortCommand.forms[word] != nil, "\(word)")
            do {
                _ = try ShortCommand.parse(word + " 1 2 3 4 5 6 7 8 9", context: Self.context)
            } catch {
                #expect(!error.message.hasPrefix("unknown command"), "\(word)")
            }
        }
    }
}
