import NetProtocol

/// What one short-syntax line asks for.
enum ShortLine: Equatable, Sendable {
    /// A command to send; its `id` is the line's `id=NAME` when given, else nil (the sender may add one).
    case command(ClientMessage)
    /// A raw JSON line, passed through unchanged (`\n` included); the server judges it.
    case raw([UInt8])
    /// Pause sending for this many milliseconds.
    case wait(milliseconds: UInt64)
    /// A blank line or a `#` comment.
    case nothing

    /// The bytes to send, if this line sends any.
    var bytes: [UInt8]? {
        switch self {
        case let .command(message): return message.encoded()
        case let .raw(bytes): return bytes
        case .wait, .nothing: return nil
        }
    }
}

/// What a line may leave out: `ID` is the selected item, `X Y` of `spawn` the cursor, `ping`'s `t` the clock.
struct ShortContext: Equatable, Sendable {
    var selected: Int?
    var cursor: Point?
    var pingTime: Double?
}

/// Why a short-syntax line was refused. The line is not sent; `message` says what is wrong.
struct ShortCommandError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The short syntax of headless input lines and of the interactive `:` command line: one grammar for both
/// (docs/PROTOCOL.md, "Short syntax").
///
/// Guarantees: a line starting with `{` is raw JSON and passes through unchanged; every other line is
/// `COMMAND ARGUMENTS... [key=value...] [id=NAME]`, words separated by runs of spaces or tabs, and becomes
/// exactly one `ClientMessage` that the server's decoder reads back as the same command, or a
/// `ShortCommandError` naming the problem (nothing is sent). Numbers must be finite; angles are radians, or
/// degrees with a `deg` suffix; body ids are non-negative integers (`#3` too); a command whose `ID` is left
/// out acts on `context.selected`, and without a selection it is an error. `id=NAME` sets the message id
/// (digits give a numeric id, anything else a string).
enum ShortCommand {
    /// Every command word, in help order (Tab completion offers these).
    static let commandWords = ["scene", "collision", "gravity", "spawn", "remove", "set", "tap", "push", "drag",
                               "snap", "velocity", "attach", "anchor", "detach", "field", "unfield", "boundary", "bounds",
                               "group", "ungroup", "pause", "resume", "step", "subscribe", "hello", "join", "rooms", "ping", "wait",
                               "hash", "checkpoint", "restore"]

    /// One line per command: the form, as help and errors show it.
    static let forms: [String: String] = [
        "scene": "scene NAME",
        "collision": "collision items|boundaries|everything",
        "gravity": "gravity ANGLE MAGNITUDE | gravity xy DX DY | gravity MAGNITUDE",
        "spawn": "spawn rect|ellipse W H [X Y] [angle=A] [vx=V] [vy=V] [PROP=VALUE...]",
        "remove": "remove [ID]",
        "set": "set [ID] PROP VALUE [PROP VALUE...]",
        "tap": "tap X Y [continuous|instantaneous] [body=ID]",
        "push": "push [ID] ANGLE MAGNITUDE [mode] | push [ID] dx=DX dy=DY [active=BOOL] [offset=X,Y]",
        "drag": "drag begin|move X Y [body=ID] | drag end",
        "snap": "snap [ID] X Y [damping=D] | snap [ID] off",
        "velocity": "velocity [ID] VX VY [av=AV] [add=BOOL] | velocity [ID] av=AV",
        "attach": "attach [ID] X Y [kind=K] [offset=X,Y] [length=L] [frequency=HZ] [damping=D] [axis=DX,DY] [range=MIN,MAX] [point=X,Y] [torque=T] | attach [ID] to=ID2 [to_offset=X,Y] ...",
        "anchor": "anchor ATTACHMENT X Y",
        "detach": "detach ATTACHMENT",
        "field": "field KIND X Y [strength=S] [falloff=F] [min_radius=R] [radius=R|size=W,H] [direction=DX,DY] [smoothness=S] [animation_speed=HZ] [bodies=ID,ID] | field FIELD [X Y] [same options]",
        "unfield": "unfield FIELD",
        "boundary": "boundary NAME X,Y X,Y... [closed] | boundary NAME remove",
        "bounds": "bounds on|off [insets=TOP,LEFT,BOTTOM,RIGHT] | bounds insets=T,L,B,R",
        "group": "group ID ID [ID...]",
        "ungroup": "ungroup GROUP",
        "pause": "pause",
        "resume": "resume",
        "step": "step [TICKS]",
        "subscribe": "subscribe [contacts=on|off] [notices=on|off] [snapshots=full|compact|none] [hz=N]",
        "hello": "hello [NAME] [token=T]",
        "join": "join ROOM [SCENE] [room_token=T]",
        "rooms": "rooms",
        "ping": "ping",
        "hash": "hash",
        "checkpoint": "checkpoint NAME",
        "restore": "restore NAME",
        "wait": "wait MS",
    ]

    /// Words Tab offers after a command's first word, for commands whose completion is a fixed list.
    static let optionWords: [String: [String]] = [
        "push": ["continuous", "instantaneous", "dx=", "dy=", "active=", "offset=", "mode="],
        "snap": ["off", "damping="],
        "attach": ["to=", "kind=", "offset=", "to_offset=", "length=", "frequency=", "damping=", "axis=", "range=", "point=", "torque="],
        "field": FieldKindName.allCases.map(\.rawValue),
        "bounds": ["on", "off", "insets="],
        "velocity": ["av=", "add="],
    ]

    /// The forms of every command, one per line, for `--help` and the `?` overlay.
    static var usage: String { commandWords.compactMap { forms[$0] }.joined(separator: " | ") + " | {raw json}; any line may end in id=NAME" }

    /// The item properties `set` and `spawn` accept, by their wire names.
    static let propertyNames = ["elasticity", "friction", "density", "resistance", "angular_resistance",
                                "allows_rotation", "anchored", "charge", "color"]

    static func parse(_ line: String, context: ShortContext = ShortContext()) throws(ShortCommandError) -> ShortLine {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .nothing }
        if trimmed.hasPrefix("{") { return .raw(Array(trimmed.utf8) + [0x0A]) }
        var words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var id: MessageID?
        if let last = words.last, last.hasPrefix("id=") {
            let name = String(last.dropFirst(3))
            guard !name.isEmpty else { throw ShortCommandError(message: "id=: give a name or number after id=") }
            id = name.allSatisfy(\.isASCIIDigit) && name.count <= 18 ? .number(name) : .string(name)
            words.removeLast()
        }
        guard let verb = words.first else { throw ShortCommandError(message: "id= needs a command before it") }
        var arguments = try ShortArguments(verb: verb, words: Array(words.dropFirst()), context: context)
        if verb == "wait" {
            if id != nil { throw ShortCommandError(message: "wait: sends nothing, so id= has nothing to name") }
            try arguments.expectCount(1...1)
            guard let milliseconds = UInt64(arguments.positional[0]) else {
                throw ShortCommandError(message: "wait: \"\(arguments.positional[0])\" is not a whole number of milliseconds")
            }
            return .wait(milliseconds: milliseconds)
        }
        let command = try Self.command(verb, &arguments)
        try arguments.finish()
        return .command(ClientMessage(id: id, command))
    }

    private static func command(_ verb: String, _ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        switch verb {
        case "scene":
            try a.expectCount(1...1)
            return .scene(name: a.positional[0])
        case "collision":
            try a.expectCount(1...1)
            guard let mode = CollisionModeName(rawValue: a.positional[0]) else {
                throw a.error("\"\(a.positional[0])\" is not items, boundaries or everything")
            }
            return .collision(mode: mode)
        case "gravity": return try gravity(&a)
        case "spawn": return try spawn(&a)
        case "remove":
            let body = try a.takeBody()
            try a.expectCount(0...0)
            return .remove(body: body)
        case "set": return try set(&a)
        case "tap":
            var mode = try a.takeMode()
            if mode == nil { mode = try a.option("mode", PushModeName.init(rawValue:), "continuous or instantaneous") }
            try a.expectCount(2...2)
            return .tap(x: try a.number(0, "X"), y: try a.number(1, "Y"), body: try a.bodyOption(), mode: mode ?? .continuous)
        case "push": return try push(&a)
        case "drag": return try drag(&a)
        case "snap":
            if a.positional.last == "off" {
                a.positional.removeLast()
                let body = try a.takeBody()
                try a.expectCount(0...0)
                return .unsnap(body: body)
            }
            let body = try a.takeBody(whenCountIs: 3)
            try a.expectCount(2...2)
            return .snap(body: body, x: try a.number(0, "X"), y: try a.number(1, "Y"),
                         damping: try a.numberOption("damping"))
        case "velocity":
            let add = try a.option("add", ShortArguments.bool, "true or false") ?? true
            let av = try a.numberOption("av")
            let body = try a.takeBody(whenCountIs: a.positional.count % 2 == 1 ? a.positional.count : -1)
            if a.positional.isEmpty, av == nil { throw a.error("give VX VY or av=") }
            guard a.positional.isEmpty || a.positional.count == 2 else { throw a.error("\(a.positional.count) arguments is not what it takes") }
            let vx = a.positional.isEmpty ? nil : try a.number(0, "VX")
            let vy = a.positional.isEmpty ? nil : try a.number(1, "VY")
            return .velocity(body: body, vx: vx, vy: vy, av: av, add: add)
        case "attach": return try attach(&a)
        case "anchor":
            try a.expectCount(3...3)
            return .anchor(attachment: try a.id(0, "ATTACHMENT"), x: try a.number(1, "X"), y: try a.number(2, "Y"))
        case "detach":
            try a.expectCount(1...1)
            return .detach(attachment: try a.id(0, "ATTACHMENT"))
        case "field": return try field(&a)
        case "unfield":
            try a.expectCount(1...1)
            return .unfield(field: try a.id(0, "FIELD"))
        case "boundary": return try boundary(&a)
        case "bounds":
            try a.expectCount(0...1)
            var enabled: Bool?
            if let word = a.positional.first {
                guard let flag = ShortArguments.bool(word) else { throw a.error("\"\(word)\" is not on or off") }
                enabled = flag
            }
            let insets = try a.option("insets", ShortArguments.insets, "TOP,LEFT,BOTTOM,RIGHT")
            guard enabled != nil || insets != nil else { throw a.error("give on, off or insets=") }
            return .bounds(enabled: enabled, insets: insets)
        case "group":
            guard a.positional.count >= 2 else { throw a.error("give at least two item ids") }
            return .group(bodies: try a.positional.indices.map { (index: Int) throws(ShortCommandError) -> Int in try a.id(index, "ID") })
        case "ungroup":
            try a.expectCount(1...1)
            return .ungroup(group: try a.id(0, "GROUP"))
        case "pause":
            try a.expectCount(0...0)
            return .pause
        case "resume":
            try a.expectCount(0...0)
            return .resume
        case "step":
            try a.expectCount(0...1)
            guard let word = a.positional.first else { return .step(ticks: 1) }
            guard let ticks = Int(word), (1...600).contains(ticks) else { throw a.error("TICKS \"\(word)\" is not a whole number from 1 to 600") }
            return .step(ticks: ticks)
        case "subscribe":
            try a.expectCount(0...0)
            let change = SubscriptionChange(
                contacts: try a.option("contacts", ShortArguments.bool, "on or off"),
                notices: try a.option("notices", ShortArguments.bool, "on or off"),
                snapshots: try a.option("snapshots", Subscription.Snapshots.init(rawValue:), "full, compact or none"),
                snapshotHz: try a.numberOption("hz"))
            if let hz = change.snapshotHz, hz < 1 { throw a.error("hz: \(hz) is below 1") }
            guard change != SubscriptionChange() else { throw a.error("say what to change") }
            return .subscribe(change)
        case "hello":
            try a.expectCount(0...1)
            return .hello(name: a.positional.first, token: try a.option("token", { $0 }, ""), protocolVersion: 1)
        case "join":
            try a.expectCount(1...2)
            return .join(room: a.positional[0], scene: a.positional.count > 1 ? a.positional[1] : nil,
                         roomToken: try a.option("room_token", { $0 }, ""))
        case "rooms":
            try a.expectCount(0...0)
            return .rooms
        case "ping":
            try a.expectCount(0...0)
            return .ping(t: a.context.pingTime.map(JSONValue.number))
        case "hash":
            try a.expectCount(0...0)
            return .hash
        case "checkpoint", "restore":
            try a.expectCount(1...1)
            let name = a.positional[0]
            return verb == "checkpoint" ? .checkpoint(name: name) : .restore(name: name)
        default:
            let suggestion = commandWords.first { $0.hasPrefix(String(verb.prefix(2))) }.map { " (did you mean \($0)?)" } ?? ""
            throw ShortCommandError(message: "unknown command \"\(verb)\"\(suggestion); commands: \(commandWords.joined(separator: " "))")
        }
    }

    private static func gravity(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        if a.positional.first == "xy" {
            a.positional.removeFirst()
            try a.expectCount(2...2)
            return .gravity(.vector(dx: try a.number(0, "DX"), dy: try a.number(1, "DY"), magnitude: nil))
        }
        try a.expectCount(1...2)
        if a.positional.count == 1 { return .gravity(.magnitude(try a.number(0, "MAGNITUDE"))) }
        return .gravity(.angle(try a.angle(0, "ANGLE"), magnitude: try a.number(1, "MAGNITUDE")))
    }

    private static func spawn(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        try a.expectCount([3, 5])
        let shape: ShapeName
        switch a.positional[0] {
        case "rect", "box": shape = .rect
        case "ellipse", "circle": shape = .ellipse
        default: throw a.error("\"\(a.positional[0])\" is not rect or ellipse")
        }
        let width = try a.number(1, "W")
        let height = try a.number(2, "H")
        let at: Point
        if a.positional.count == 5 {
            at = Point(try a.number(3, "X"), try a.number(4, "Y"))
        } else if let cursor = a.context.cursor {
            at = cursor
        } else {
            throw a.error("give X Y (there is no cursor here)")
        }
        let angle = try a.angleOption("angle")
        let vx = try a.numberOption("vx")
        let vy = try a.numberOption("vy")
        let patch = try a.patch(from: a.remainingOptions())
        return .spawn(shape: shape, width: width, height: height, x: at.x, y: at.y, angle: angle, vx: vx, vy: vy, patch: patch)
    }

    private static func set(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        let body = try a.takeBody(whenCountIs: nil)
        guard a.positional.count % 2 == 0 else { throw a.error("give each PROP a VALUE") }
        var pairs: [(String, String)] = stride(from: 0, to: a.positional.count, by: 2).map { (a.positional[$0], a.positional[$0 + 1]) }
        a.positional.removeAll()
        pairs += a.remainingOptions()
        guard !pairs.isEmpty else { throw a.error("give at least one PROP VALUE (\(propertyNames.joined(separator: ", ")))") }
        return .set(body: body, patch: try a.patch(from: pairs))
    }

    private static func push(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        var mode = try a.takeMode()
        if mode == nil { mode = try a.option("mode", PushModeName.init(rawValue:), "continuous or instantaneous") }
        let dx = try a.numberOption("dx")
        let dy = try a.numberOption("dy")
        let active = try a.option("active", ShortArguments.bool, "true or false")
        let offset = try a.pointOption("offset")
        let direction: PushDirection?
        if dx != nil || dy != nil {
            let body = try a.takeBody(whenCountIs: 1)
            try a.expectCount(0...0)
            direction = .vector(dx: dx ?? 0, dy: dy ?? 0)
            return .push(body: body, direction: direction, mode: mode, active: active, offset: offset)
        }
        // An odd number of words means the first is the ID (ANGLE MAGNITUDE come in a pair).
        let body = try a.takeBody(whenCountIs: a.positional.count % 2 == 1 ? a.positional.count : -1)
        if a.positional.isEmpty {
            guard mode != nil || active != nil || offset != nil else { throw a.error("give ANGLE MAGNITUDE or dx= dy=") }
            direction = nil
        } else {
            try a.expectCount(2...2)
            direction = .angle(try a.angle(0, "ANGLE"), magnitude: try a.number(1, "MAGNITUDE"))
        }
        return .push(body: body, direction: direction, mode: mode, active: active, offset: offset)
    }

    private static func attach(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        let kind = try a.option("kind", AttachmentKindName.init(rawValue:), AttachmentKindName.allCases.map(\.rawValue).joined(separator: ", ")) ?? .distance
        let other = try a.option("to", ShortArguments.bodyID, "an item id")
        let toOffset = try a.pointOption("to_offset")
        let target: AttachTarget
        let body: Int
        if let other {
            body = try a.takeBody(whenCountIs: 1)
            try a.expectCount(0...0)
            target = .body(other, offset: toOffset)
        } else {
            if toOffset != nil { throw a.error("to_offset= needs to=") }
            body = try a.takeBody(whenCountIs: 3)
            try a.expectCount(2...2)
            target = .anchor(Point(try a.number(0, "X"), try a.number(1, "Y")))
        }
        return .attach(AttachSpec(
            body: body, offset: try a.pointOption("offset"), target: target, kind: kind,
            length: try a.numberOption("length"), frequency: try a.numberOption("frequency"), damping: try a.numberOption("damping"),
            axis: try a.pointOption("axis").map { DirectionVector($0.x, $0.y) },
            range: try a.pointOption("range").map { ValueRange($0.x, $0.y) },
            point: try a.pointOption("point"), frictionTorque: try a.numberOption("torque")))
    }

    private static func field(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        guard let first = a.positional.first else { throw a.error("give a KIND (\(FieldKindName.allCases.map(\.rawValue).joined(separator: ", "))) or a FIELD id") }
        a.positional.removeFirst()
        var parameters = FieldParameters()
        if a.positional.count == 2 {
            parameters.x = try a.number(0, "X")
            parameters.y = try a.number(1, "Y")
        } else if !a.positional.isEmpty {
            throw a.error("\(a.positional.count + 1) arguments is not what it takes")
        }
        parameters.strength = try a.numberOption("strength")
        parameters.falloff = try a.numberOption("falloff")
        parameters.minRadius = try a.numberOption("min_radius")
        let radius = try a.numberOption("radius")
        let size = try a.pointOption("size")
        if radius != nil, size != nil { throw a.error("give radius= or size=, not both") }
        if let radius { parameters.region = FieldRegionSpec(.radius(radius)) }
        if let size { parameters.region = FieldRegionSpec(.rect(width: size.x, height: size.y)) }
        parameters.direction = try a.pointOption("direction").map { DirectionVector($0.x, $0.y) }
        parameters.smoothness = try a.numberOption("smoothness")
        parameters.animationSpeed = try a.numberOption("animation_speed")
        parameters.bodies = try a.option("bodies", ShortArguments.idList, "ID,ID,...")
        if let kind = FieldKindName(rawValue: first) {
            guard parameters.x != nil else { throw a.error("give X Y for a new field") }
            return .field(kind: kind, parameters)
        }
        guard let field = ShortArguments.bodyID(first) else {
            throw a.error("\"\(first)\" is not a field kind (\(FieldKindName.allCases.map(\.rawValue).joined(separator: ", "))) or a field id")
        }
        guard parameters != FieldParameters() else { throw a.error("say what to change") }
        return .fieldUpdate(field: field, parameters)
    }

    private static func boundary(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        guard let name = a.positional.first else { throw a.error("give a NAME") }
        a.positional.removeFirst()
        if a.positional == ["remove"] { return .removeBoundary(name: name) }
        let closed = a.positional.last == "closed"
        if closed { a.positional.removeLast() }
        guard a.positional.count >= 2 else { throw a.error("give at least two points X,Y") }
        var points: [Point] = []
        for word in a.positional {
            guard let point = ShortArguments.point(word) else { throw a.error("\"\(word)\" is not a point X,Y") }
            points.append(point)
        }
        return .boundary(name: name, points: points, closed: closed)
    }

    private static func drag(_ a: inout ShortArguments) throws(ShortCommandError) -> ClientCommand {
        guard let word = a.positional.first, let phase = DragPhase(rawValue: word) else {
            throw a.error("expected begin, move or end")
        }
        a.positional.removeFirst()
        if phase == .end {
            try a.expectCount(0...0)
            return .drag(phase: .end, x: nil, y: nil, body: nil)
        }
        try a.expectCount(2...2)
        return .drag(phase: phase, x: try a.number(0, "X"), y: try a.number(1, "Y"), body: try a.bodyOption())
    }
}

/// One line's words after the command: positional words in order and `key=value` options, each option to be
/// used exactly once (`finish` rejects the rest).
struct ShortArguments {
    let verb: String
    var positional: [String]
    var options: [(key: String, value: String)]
    let context: ShortContext

    init(verb: String, words: [String], context: ShortContext) throws(ShortCommandError) {
        self.verb = verb
        self.context = context
        positional = []
        options = []
        for word in words {
            if let equals = word.firstIndex(of: "="), equals != word.startIndex {
                let key = String(word[..<equals])
                guard !options.contains(where: { $0.key == key }) else {
                    throw ShortCommandError(message: "\(verb): \(key)= is given twice")
                }
                options.append((key, String(word[word.index(after: equals)...])))
            } else {
                positional.append(word)
            }
        }
    }

    func error(_ text: String) -> ShortCommandError {
        ShortCommandError(message: "\(verb): \(text); expected \(ShortCommand.forms[verb] ?? verb)")
    }

    /// Unused options are mistakes, never silently ignored.
    func finish() throws(ShortCommandError) {
        if let unused = options.first { throw error("unknown option \(unused.key)=") }
    }

    func expectCount(_ allowed: ClosedRange<Int>) throws(ShortCommandError) {
        guard allowed.contains(positional.count) else { throw error(countProblem) }
    }

    func expectCount(_ allowed: [Int]) throws(ShortCommandError) {
        guard allowed.contains(positional.count) else { throw error(countProblem) }
    }

    private var countProblem: String {
        positional.isEmpty ? "arguments missing" : "\(positional.count) argument\(positional.count == 1 ? "" : "s") is not what it takes"
    }

    func number(_ index: Int, _ name: String) throws(ShortCommandError) -> Double {
        try Self.number(positional[index], name, verb: verb)
    }

    func angle(_ index: Int, _ name: String) throws(ShortCommandError) -> Double {
        try Self.angle(positional[index], name, verb: verb)
    }

    static func number(_ word: String, _ name: String, verb: String) throws(ShortCommandError) -> Double {
        guard let value = Double(word), value.isFinite else {
            throw ShortCommandError(message: "\(verb): \(name) \"\(word)\" is not a finite number")
        }
        return value
    }

    static func angle(_ word: String, _ name: String, verb: String) throws(ShortCommandError) -> Double {
        if word.hasSuffix("deg") {
            return try number(String(word.dropLast(3)), name, verb: verb) * Double.pi / 180
        }
        return try number(word, name, verb: verb)
    }

    /// A positional id (attachment, field, group, item), `#` allowed.
    func id(_ index: Int, _ name: String) throws(ShortCommandError) -> Int {
        guard let value = Self.bodyID(positional[index]) else { throw error("\(name) \"\(positional[index])\" is not an id") }
        return value
    }

    static func idList(_ word: String) -> [Int]? {
        let ids = word.split(separator: ",", omittingEmptySubsequences: false).map { bodyID(String($0)) }
        guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else { return nil }
        return ids.compactMap { $0 }
    }

    static func insets(_ word: String) -> BoundsInsets? {
        let values = word.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard values.count == 4, let top = values[0], let left = values[1], let bottom = values[2], let right = values[3],
              [top, left, bottom, right].allSatisfy(\.isFinite) else { return nil }
        return BoundsInsets(top: top, left: left, bottom: bottom, right: right)
    }

    static func bool(_ word: String) -> Bool? {
        switch word.lowercased() {
        case "true", "on", "yes", "1": return true
        case "false", "off", "no", "0": return false
        default: return nil
        }
    }

    static func bodyID(_ word: String) -> Int? {
        let digits = word.hasPrefix("#") ? String(word.dropFirst()) : word
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// The item: a leading id word when one is there (and, with `whenCountIs`, only when exactly that many
    /// positional words are given), else the selection.
    mutating func takeBody(whenCountIs count: Int? = nil) throws(ShortCommandError) -> Int {
        if let first = positional.first, count == nil || positional.count == count {
            if let id = Self.bodyID(first) {
                positional.removeFirst()
                return id
            }
            if count != nil { throw error("ID \"\(first)\" is not an item id") }
        }
        guard let selected = context.selected else { throw error("no item selected: give its ID") }
        return selected
    }

    /// A trailing `continuous` or `instantaneous`.
    mutating func takeMode() throws(ShortCommandError) -> PushModeName? {
        guard let last = positional.last, let mode = PushModeName(rawValue: last) else { return nil }
        positional.removeLast()
        return mode
    }

    mutating func option<T>(_ key: String, _ parse: (String) -> T?, _ expected: String) throws(ShortCommandError) -> T? {
        guard let index = options.firstIndex(where: { $0.key == key }) else { return nil }
        let value = options.remove(at: index).value
        guard let parsed = parse(value) else { throw error("\(key)=\(value): expected \(expected)") }
        return parsed
    }

    mutating func numberOption(_ key: String) throws(ShortCommandError) -> Double? {
        try option(key, { Double($0).flatMap { $0.isFinite ? $0 : nil } }, "a finite number")
    }

    mutating func angleOption(_ key: String) throws(ShortCommandError) -> Double? {
        try option(key, { try? Self.angle($0, key, verb: "") }, "an angle (radians, or degrees with deg)")
    }

    mutating func bodyOption() throws(ShortCommandError) -> Int? {
        try option("body", Self.bodyID, "an item id")
    }

    /// `key=X,Y`.
    mutating func pointOption(_ key: String) throws(ShortCommandError) -> Point? {
        try option(key, Self.point, "X,Y")
    }

    static func point(_ word: String) -> Point? {
        let parts = word.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else { return nil }
        return Point(x, y)
    }

    /// Takes every option that is left (the item properties of `spawn` and `set`).
    mutating func remainingOptions() -> [(String, String)] {
        defer { options.removeAll() }
        return options.map { ($0.key, $0.value) }
    }

    /// Item properties by name (wire names; `angularResistance` and `allowsRotation` too), values checked
    /// against the ranges of docs/UIKIT.md so that a mistake is caught before it is sent.
    func patch(from pairs: [(String, String)]) throws(ShortCommandError) -> PropertyPatch {
        var patch = PropertyPatch()
        for (name, value) in pairs {
            func number(_ range: ClosedRange<Double>) throws(ShortCommandError) -> Double {
                let parsed = try Self.number(value, name, verb: verb)
                guard range.contains(parsed) else { throw error("\(name) \(value) is outside \(Self.describe(range))") }
                return parsed
            }
            func flag() throws(ShortCommandError) -> Bool {
                guard let parsed = Self.bool(value) else { throw error("\(name) \"\(value)\" is not true or false") }
                return parsed
            }
            switch name {
            case "elasticity": patch.elasticity = try number(0...1)
            case "friction": patch.friction = try number(0...1)
            case "density":
                patch.density = try number(Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude)
            case "resistance": patch.resistance = try number(0...Double.greatestFiniteMagnitude)
            case "angular_resistance", "angularResistance":
                patch.angularResistance = try number(0...Double.greatestFiniteMagnitude)
            case "allows_rotation", "allowsRotation": patch.allowsRotation = try flag()
            case "charge": patch.charge = try Self.number(value, name, verb: verb)
            case "anchored": patch.anchored = try flag()
            case "color", "colour":
                let hex = value.hasPrefix("#") ? value : "#" + value
                guard RGB(hex: hex) != nil else { throw error("color \"\(value)\" is not #rrggbb") }
                patch.color = hex
            default:
                throw error("\"\(name)\" is not a property (\(ShortCommand.propertyNames.joined(separator: ", ")))")
            }
        }
        return patch
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        if range.upperBound == .greatestFiniteMagnitude {
            return range.lowerBound == 0 ? "0 or more" : "above 0"
        }
        return "\(StatusLine.format(range.lowerBound, decimals: 0))..\(StatusLine.format(range.upperBound, decimals: 0))"
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, `\r` and `\n`.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
