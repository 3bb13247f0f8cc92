import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// The exact bytes of every server message type of docs/PROTOCOL.md's transcripts, in a held world (so
    /// every number is exact), read as raw lines and checked with Foundation's JSON reader, never the
    /// product's: the member order, the numbers' spelling, and the order of lines (`scene` before the `ack`
    /// of the command that changed it, the step's snapshot before the step's ack, every `notice`).
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct GoldenLineTests {
        static let emptyScene = #"{"type":"scene","name":"empty","gravity":{"dx":0,"dy":1,"magnitude":1},"collision_mode":"everything","bodies":[],"boundaries":[],"attachments":[],"snaps":[],"caption":"An empty world. Spawn items (the page's spawn button, or n at the cursor) and give them gravity or fields.","fields":[],"bounds":{"enabled":true,"insets":{"top":0,"left":0,"bottom":0,"right":0}},"groups":[]}"#

        @Test func joiningAHeldEmptyWorldSendsExactlyTheDocumentedWelcomeSceneAndSnapshot() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            let lines = client.joinLines()
            try #require(lines.count == 3, "\(lines)")
            let http = try #require(server.httpPort)
            #expect(lines[0] == #"{"type":"welcome","protocol":1,"client":1,"server":"dynserver \#(DynVersion.current)","world":{"width":800,"height":600},"tick_hz":60,"snapshot_hz":30,"auth_required":false,"room":"main","http_port":\#(http)}"#)
            #expect(lines[1] == Self.emptyScene)
            #expect(lines[2] == #"{"type":"snapshot","tick":0,"time":0,"paused":false,"held":true,"clients":1,"bodies":[],"drags":[]}"#)
            let welcome = try RawLines.object(lines[0])
            #expect((welcome["world"] as? [String: Any])?["width"] as? Int == 800)
            #expect(welcome["auth_required"] as? Bool == false)
            // --world and a second client: the welcome says both; without HTTP it has no http_port.
            let wide = try ServerProcess(["--scene", "empty", "--held", "--world", "1200x500", "--no-http"])
            _ = try wide.connect().joinLines()
            let second = try wide.connect().joinLines()
            try #require(second.count == 3)
            let object = try RawLines.object(second[0])
            #expect(object["client"] as? Int == 2, "client ids count up")
            #expect((object["world"] as? [String: Any])?["width"] as? Int == 1200)
            #expect((object["world"] as? [String: Any])?["height"] as? Int == 500)
            #expect(object["http_port"] == nil, "no HTTP listener, no http_port: \(second[0])")
            #expect(object["room"] as? String == "main")
        }

        /// True when `line` is `pattern`, where `<N>` in the pattern stands for one id the server chose.
        static func matches(_ line: String, _ pattern: String) -> Bool {
            let parts = pattern.components(separatedBy: "<N>")
            guard parts.count == 2 else { return line == pattern }
            guard line.hasPrefix(parts[0]), line.hasSuffix(parts[1]), line.count > parts[0].count + parts[1].count else { return false }
            return line.dropFirst(parts[0].count).dropLast(parts[1].count).allSatisfy(\.isNumber)
        }

        /// One command of the walk below: what is sent, whether a `scene` precedes the answer, and the answer's
        /// exact bytes (built from the ids read back so far).
        struct Step {
            var request: String
            var id: Int
            var scene: Bool
            var answer: String
        }

        @Test func everyCommandsAnswerIsExactlyTheDocumentedBytesWithTheSceneBeforeItsAck() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            let watcher = try server.connect()
            let quiet = try server.connect()
            _ = client.joinLines()
            _ = watcher.joinLines()
            _ = quiet.joinLines()
            // The quiet client turns notices off; the watcher keeps the default (on).
            #expect(try quiet.exchange(#"{"type":"subscribe","notices":false,"id":1}"#, id: 1).last
                    == #"{"type":"ack","id":1,"contacts":false,"notices":false,"snapshots":"full","snapshot_hz":30}"#)

            var scenes: [Int: String] = [:]
            func run(_ step: Step) throws -> [String: Any] {
                let lines = try client.exchange(step.request, id: step.id)
                let answer = try #require(lines.last, "an answer to \(step.request)")
                #expect(Self.matches(answer, step.answer), "answer to \(step.request): \(answer)")
                let scenesBefore = lines.dropLast().filter { RawLines.type($0) == "scene" }
                #expect(scenesBefore.count == (step.scene ? 1 : 0), "\(step.request): \(scenesBefore.count) scenes before the answer")
                if let scene = scenesBefore.first { scenes[step.id] = scene }
                for line in lines { _ = try RawLines.object(line) }
                return try RawLines.object(answer)
            }
            func id(_ object: [String: Any], _ key: String) throws -> Int { try #require(object[key] as? Int, "\(key) in \(object)") }

            _ = try run(Step(request: #"{"type":"hello","name":"bob","id":2}"#, id: 2, scene: false, answer: #"{"type":"ack","id":2,"client":1,"admin":true,"room":"main"}"#))
            _ = try run(Step(request: #"{"type":"ping","t":17.25,"id":3}"#, id: 3, scene: false, answer: #"{"type":"pong","t":17.25,"tick":0,"id":3}"#))
            _ = try run(Step(request: #"{"type":"spawn","shape":"rect","width":60,"height":40,"x":400,"y":100,"id":4}"#, id: 4, scene: true,
                             answer: #"{"type":"ack","id":4,"body":1}"#))
            #expect(scenes[4]?.contains(##""bodies":[{"id":1,"shape":"rect","width":60,"height":40,"elasticity":0,"friction":0,"density":1,"resistance":0,"angular_resistance":0,"allows_rotation":true,"anchored":false,"color":"#e6194b","charge":0}]"##) == true, "\(scenes[4] ?? "")")
            _ = try run(Step(request: #"{"type":"spawn","shape":"rect","width":20,"height":20,"x":200,"y":100,"anchored":true,"id":5}"#, id: 5, scene: true,
                             answer: #"{"type":"ack","id":5,"body":2}"#))
            _ = try run(Step(request: #"{"type":"tap","x":500,"y":100,"id":6}"#, id: 6, scene: false, answer: #"{"type":"ack","id":6,"body":1,"angle":0,"magnitude":0.5}"#))
            _ = try run(Step(request: #"{"type":"set","body":1,"elasticity":0.5,"id":7}"#, id: 7, scene: true, answer: #"{"type":"ack","id":7,"body":1}"#))
            _ = try run(Step(request: #"{"type":"gravity","dx":0,"dy":0.5,"id":8}"#, id: 8, scene: true, answer: #"{"type":"ack","id":8,"dx":0,"dy":0.5,"magnitude":0.5}"#))
            #expect(scenes[8]?.contains(#""gravity":{"dx":0,"dy":0.5,"magnitude":0.5}"#) == true)
            _ = try run(Step(request: #"{"type":"collision","mode":"boundaries","id":9}"#, id: 9, scene: true, answer: #"{"type":"ack","id":9,"mode":"boundaries"}"#))
            _ = try run(Step(request: #"{"type":"snap","body":1,"x":200,"y":150,"id":10}"#, id: 10, scene: true, answer: #"{"type":"ack","id":10,"body":1}"#))
            #expect(scenes[10]?.contains(#""snaps":[{"body":1,"point":{"x":200,"y":150},"damping":0.5}]"#) == true)
            _ = try run(Step(request: #"{"type":"snap","body":1,"active":false,"id":11}"#, id: 11, scene: true, answer: #"{"type":"ack","id":11,"body":1}"#))
            _ = try run(Step(request: #"{"type":"push","body":1,"angle":1.5708,"magnitude":2,"mode":"instantaneous","id":12}"#, id: 12, scene: false,
                             answer: #"{"type":"ack","id":12,"body":1,"angle":1.5708,"magnitude":2}"#))
            _ = try run(Step(request: #"{"type":"drag","phase":"begin","x":400,"y":100,"id":13}"#, id: 13, scene: false, answer: #"{"type":"ack","id":13,"body":1}"#))
            _ = try run(Step(request: #"{"type":"drag","phase":"end","id":14}"#, id: 14, scene: false, answer: #"{"type":"ack","id":14,"body":1}"#))

            let attached = try run(Step(request: #"{"type":"attach","body":1,"anchor":{"x":400,"y":20},"offset":{"x":0,"y":-20},"id":15}"#, id: 15, scene: true,
                                        answer: #"{"type":"ack","id":15,"attachment":<N>}"#))
            let attachment = try id(attached, "attachment")
            #expect(scenes[15]?.contains(#""attachments":[{"id":\#(attachment),"kind":"distance","body":1,"anchor":{"x":400,"y":20},"offset":{"x":0,"y":-20},"length":60,"frequency":0,"damping":0}]"#) == true, "\(scenes[15] ?? "")")
            _ = try run(Step(request: #"{"type":"anchor","attachment":\#(attachment),"x":420,"y":20,"id":16}"#, id: 16, scene: true,
                             answer: #"{"type":"ack","id":16,"attachment":\#(attachment)}"#))
            #expect(scenes[16]?.contains(#""anchor":{"x":420,"y":20}"#) == true)
            _ = try run(Step(request: #"{"type":"detach","attachment":\#(attachment),"id":17}"#, id: 17, scene: true,
                             answer: #"{"type":"ack","id":17,"attachment":\#(attachment)}"#))

            let added = try run(Step(request: #"{"type":"field","kind":"radial_gravity","x":400,"y":300,"strength":5,"falloff":0,"region":{"radius":250},"id":18}"#,
                                     id: 18, scene: true, answer: #"{"type":"ack","id":18,"field":<N>}"#))
            let field = try id(added, "field")
            #expect(field > attachment, "ids are never reused, across kinds")
            #expect(scenes[18]?.contains(#""fields":[{"id":\#(field),"kind":"radial_gravity","x":400,"y":300,"strength":5,"falloff":0,"min_radius":0,"region":{"radius":250},"direction":{"dx":0,"dy":0},"smoothness":0,"animation_speed":0}]"#) == true, "\(scenes[18] ?? "")")
            _ = try run(Step(request: #"{"type":"unfield","field":\#(field),"id":19}"#, id: 19, scene: true, answer: #"{"type":"ack","id":19,"field":\#(field)}"#))
            _ = try run(Step(request: #"{"type":"velocity","body":1,"vx":300,"vy":-100,"id":20}"#, id: 20, scene: false,
                             answer: #"{"type":"ack","id":20,"body":1,"vx":300,"vy":-100,"av":0}"#))
            _ = try run(Step(request: #"{"type":"boundary","boundary":"ledge","points":[[100,400],[300,420]],"closed":false,"id":21}"#, id: 21, scene: true,
                             answer: #"{"type":"ack","id":21,"boundary":"ledge"}"#))
            #expect(scenes[21]?.contains(#""boundaries":[{"id":"ledge","points":[[100,400],[300,420]],"closed":false}]"#) == true)
            _ = try run(Step(request: #"{"type":"boundary","boundary":"ledge","remove":true,"id":22}"#, id: 22, scene: true, answer: #"{"type":"ack","id":22,"boundary":"ledge"}"#))
            _ = try run(Step(request: #"{"type":"bounds","enabled":true,"insets":{"top":0,"left":50,"bottom":100,"right":50},"id":23}"#, id: 23, scene: true,
                             answer: #"{"type":"ack","id":23,"enabled":true}"#))
            #expect(scenes[23]?.contains(#""bounds":{"enabled":true,"insets":{"top":0,"left":50,"bottom":100,"right":50}}"#) == true)

            let grouped = try run(Step(request: #"{"type":"group","bodies":[1,2],"id":24}"#, id: 24, scene: true,
                                       answer: #"{"type":"ack","id":24,"group":<N>}"#))
            let group = try id(grouped, "group")
            #expect(group > field, "ids are never reused, across kinds")
            #expect(scenes[24]?.hasSuffix(#""groups":[{"id":\#(group),"bodies":[1,2]}]}"#) == true, "\(scenes[24] ?? "")")
            _ = try run(Step(request: #"{"type":"ungroup","group":\#(group),"id":25}"#, id: 25, scene: true, answer: #"{"type":"ack","id":25,"group":\#(group)}"#))
            _ = try run(Step(request: #"{"type":"subscribe","contacts":true,"id":26}"#, id: 26, scene: false,
                             answer: #"{"type":"ack","id":26,"contacts":true,"notices":true,"snapshots":"full","snapshot_hz":30}"#))

            // step: the snapshot to everyone, then the ack.
            let stepped = try client.exchange(#"{"type":"step","ticks":10,"id":27}"#, id: 27)
            #expect(stepped.last == #"{"type":"ack","id":27,"ticks":10,"time":0.16666666666666666}"#)
            #expect(stepped.dropLast().last?.hasPrefix(#"{"type":"snapshot","tick":10,"time":0.167,"paused":false,"held":true,"clients":3,"bodies":[{"id":1,"#) == true,
                    "\(stepped.map { $0.prefix(100) })")
            // resume, then pause: the held snapshot before the pause's ack.
            #expect(try client.exchange(#"{"type":"resume","id":28}"#, id: 28).last == #"{"type":"ack","id":28,"held":false}"#)
            let paused = try client.exchange(#"{"type":"pause","id":29}"#, id: 29)
            #expect(paused.last == #"{"type":"ack","id":29,"held":true}"#)
            let heldSnapshot = try RawLines.object(try #require(paused.dropLast().last))
            #expect(heldSnapshot["type"] as? String == "snapshot" && heldSnapshot["held"] as? Bool == true)

            _ = try run(Step(request: #"{"type":"remove","body":2,"id":30}"#, id: 30, scene: true, answer: #"{"type":"ack","id":30,"body":2}"#))
            _ = try run(Step(request: #"{"type":"remove","body":999,"id":31}"#, id: 31, scene: false,
                             answer: #"{"type":"error","code":"unknown_body","message":"no body with id 999","id":31}"#))
            try client.send(#"{"type":"bogus"}"#)
            #expect(client.nextLine() == #"{"type":"error","code":"unknown_type","message":"unknown message type \"bogus\""}"#)
            let loaded = try run(Step(request: #"{"type":"scene","name":"empty","id":32}"#, id: 32, scene: true, answer: #"{"type":"ack","id":32,"scene":"empty"}"#))
            #expect(loaded["scene"] as? String == "empty")
            let spawned = try run(Step(request: #"{"type":"spawn","shape":"rect","width":20,"height":20,"x":300,"y":100,"id":33}"#, id: 33, scene: true,
                                       answer: #"{"type":"ack","id":33,"body":<N>}"#))
            let fresh = try id(spawned, "body")
            #expect(fresh > 2, "a body spawned after a scene load takes a new id (\(fresh)), never 1 or 2 again")

            // Every command that changes the world's structure sent the watcher one notice (not `anchor`, which
            // docs/PROTOCOL.md leaves out of the list, nor a mere move), naming bob; the
            // quiet client (notices:false) got none.
            let seen = try watcher.linesBeforePong().filter { RawLines.type($0) == "notice" }
            let commands = try seen.map { try #require(try RawLines.object($0)["command"] as? String) }
            let expected = ["spawn", "spawn", "set", "gravity", "collision", "snap", "snap", "attach", "detach", "field", "unfield",
                            "boundary", "boundary", "bounds", "group", "ungroup", "resume", "pause", "remove", "scene", "spawn"]
            #expect(commands == expected, "notices: \(commands)")
            #expect(seen.first == #"{"type":"notice","client":1,"name":"bob","command":"spawn","summary":"spawned rect 1"}"#)
            #expect(try seen.allSatisfy { let o = try RawLines.object($0); return o["client"] as? Int == 1 && o["name"] as? String == "bob" })
            #expect(try quiet.linesBeforePong().allSatisfy { RawLines.type($0) != "notice" }, "notices:false turns notices off")

            // bye, last.
            server.signal(SIGTERM)
            #expect(client.linesUntilClosed(timeout: 30).last == #"{"type":"bye","reason":"shutdown"}"#)
        }

        @Test func aCompactSubscriberGetsTheDocumentedFrameBytes() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.joinLines()
            #expect(try client.exchange(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":300,"y":100,"id":1}"#, id: 1).last == #"{"type":"ack","id":1,"body":1}"#)
            #expect(try client.exchange(#"{"type":"subscribe","snapshots":"compact","id":2}"#, id: 2).last
                    == #"{"type":"ack","id":2,"contacts":false,"notices":true,"snapshots":"compact","snapshot_hz":30}"#)
            let stepped = try client.exchange(#"{"type":"step","ticks":1,"id":3}"#, id: 3)
            let frames = stepped.filter { RawLines.type($0) == "frame" }
            // The keyframe of the subscription (positions in hundredths, docs/PROTOCOL.md), then the step's delta.
            #expect(frames.first == #"{"type":"frame","tick":0,"time":0,"base":null,"paused":false,"held":true,"clients":1,"bodies":[[1,30000,10000,0]],"drags":[]}"#, "\(frames)")
            let delta = try RawLines.object(try #require(frames.last))
            #expect(delta["tick"] as? Int == 1 && delta["base"] as? Int == 0, "\(frames)")
            #expect(stepped.last == #"{"type":"ack","id":3,"ticks":1,"time":0.016666666666666666}"#)
        }

        @Test func aContactLineHasTheDocumentedMembers() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.joinLines()
            _ = try client.exchange(#"{"type":"subscribe","contacts":true,"id":1}"#, id: 1)
            _ = try client.exchange(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":300,"y":570,"vy":300,"id":2}"#, id: 2)
            var contact: String?
            for round in 0..<20 where contact == nil {
                contact = try client.exchange(#"{"type":"step","ticks":5,"id":\#(10 + round)}"#, id: 10 + round).first { RawLines.type($0) == "contact" }
            }
            let line = try #require(contact, "the item falling on the floor makes a contact")
            #expect(line.hasPrefix(#"{"type":"contact","phase":"began","tick":"#), "\(line)")
            let object = try RawLines.object(line)
            #expect(object["a"] as? Int == 1 && object["boundary"] as? String == "bounds", "\(line)")
            let point = try #require(object["point"] as? [String: Any])
            #expect((point["y"] as? Double ?? 0) > 580, "the contact is on the floor: \(line)")
        }
    }
}
