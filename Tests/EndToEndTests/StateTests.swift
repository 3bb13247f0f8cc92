import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `--state FILE` (docs/STATE.md): the world survives a restart, a SIGKILL loses at most the last interval,
    /// and a bad file is reported, kept aside and never overwritten.
    @Suite(.serialized)
    struct StateTests {
        private static func stateDirectory() throws -> URL {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dynserver-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return dir
        }

        /// The raw `scene` and `snapshot` lines a client that joins second gets (two clients, as before).
        private static func joinLines(_ server: ServerProcess, first joined: LineClient? = nil) throws -> (scene: String, snapshot: String, keep: [LineClient]) {
            let first = try joined ?? server.connect()
            if joined == nil { _ = first.join() }
            let second = try server.connect()
            _ = try #require(second.nextLine(timeout: 10))
            let scene = try #require(second.nextLine(timeout: 10))
            let snapshot = try #require(second.nextLine(timeout: 10))
            return (scene, snapshot, [first, second])
        }

        @Test(.timeLimit(.minutes(5))) func aRestoredWorldSendsTheSameSceneAndSnapshotBytesAndNeverReusesIds() throws {
            let dir = try Self.stateDirectory()
            let file = dir.appendingPathComponent("world.json").path
            let original = try ServerProcess(["--scene", "default", "--held", "--state", file])
            let admin = try original.connect()
            _ = admin.join()
            // Every kind of structure the server keeps: items with every property and colour, a polygon,
            // pushes, snaps, attachments of each kind, boundaries, inset bounds, gravity, collision mode.
            let commands = [
                ##"{"type":"spawn","shape":"polygon","points":[[0,-20],[20,15],[-20,15]],"width":40,"height":35,"x":200,"y":120,"angle":0.3,"vx":40,"elasticity":0.7,"friction":0.2,"density":2.5,"resistance":0.1,"angular_resistance":0.2,"color":"#123456"}"##,
                #"{"type":"spawn","shape":"ellipse","width":30,"height":30,"x":600,"y":100,"allows_rotation":false,"charge":2}"#,
                #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":50,"y":50}"#,
                #"{"type":"remove","body":3}"#,
                #"{"type":"set","body":1,"anchored":false,"friction":0.9}"#,
                #"{"type":"snap","body":2,"x":300,"y":300,"damping":0.3}"#,
                #"{"type":"push","body":4,"angle":1.2,"magnitude":0.4}"#,
                #"{"type":"attach","body":5,"anchor":{"x":650,"y":40},"length":80,"frequency":2,"damping":0.4}"#,
                #"{"type":"attach","body":1,"to_body":4,"kind":"limit","length":150}"#,
                #"{"type":"boundary","boundary":"ledge","points":[[100,400],[300,420],[320,380]],"closed":false}"#,
                #"{"type":"bounds","insets":{"top":5,"left":6,"bottom":7,"right":8}}"#,
                #"{"type":"gravity","angle":1.4,"magnitude":0.8}"#,
                #"{"type":"collision","mode":"everything"}"#,
            ]
            var lastSpawned = 0
            for (index, command) in commands.enumerated() {
                let line = command.replacingOccurrences(of: "{\"type\"", with: "{\"id\":\(index + 1),\"type\"")
                guard case let .ack(_, fields)? = try admin.request(line, id: .int(index + 1)) else {
                    Issue.record("not acked: \(command)")
                    return
                }
                if command.contains("spawn") { lastSpawned = Int(fields.number("body") ?? 0) }
            }
            _ = try #require(try admin.stepLine(37, id: 100))
            let before = try Self.joinLines(original, first: admin)
            original.signal(SIGTERM)
            #expect(original.waitForExit(timeout: 10) == 0)
            #expect(original.stderr.contains("shutting down"))
            // Two restored servers from the same file: each gives the bytes the original gave.
            let copy = dir.appendingPathComponent("copy.json").path
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            let restored = try ServerProcess(["--scene", "empty", "--state", file])
            #expect(restored.stderr.contains("restored state from \(file)"), "\(restored.stderr)")
            let after = try Self.joinLines(restored)
            #expect(after.scene == before.scene, "scene bytes differ")
            #expect(after.snapshot == before.snapshot, "snapshot bytes differ:\n\(before.snapshot)\n\(after.snapshot)")
            // Still held, and the two restored copies step identically.
            let twin = try ServerProcess(["--scene", "empty", "--state", copy])
            let twinJoin = try Self.joinLines(twin)
            let twinClient = twinJoin.keep[0]
            let a = try #require(try after.keep[0].stepLine(25, id: 200))
            let b = try #require(try twinClient.stepLine(25, id: 200))
            #expect(a == b)
            // Ids continue from the saved counters (the removed body 3 and every other id stay used up).
            let spawned = try #require(try after.keep[0].ack(#"{"id":201,"type":"spawn","shape":"rect","width":10,"height":10,"x":400,"y":50}"#, id: 201))
            #expect(spawned.number("body") == Double(lastSpawned + 1), "ids continue after \(lastSpawned)")
            try? FileManager.default.removeItem(at: dir)
        }

        @Test(.timeLimit(.minutes(5)), arguments: ["fields", "joints", "group", "attachment", "snap", "push"])
        func everySceneRoundTripsToTheSameSceneAndSnapshotBytes(scene: String) throws {
            let dir = try Self.stateDirectory()
            let file = dir.appendingPathComponent("world.json").path
            let original = try ServerProcess(["--scene", scene, "--held", "--state", file])
            let admin = try original.connect()
            _ = admin.join()
            _ = try #require(try admin.stepLine(45, id: 1))
            let before = try Self.joinLines(original, first: admin)
            original.signal(SIGTERM)
            #expect(original.waitForExit(timeout: 10) == 0)
            let restored = try ServerProcess(["--scene", "empty", "--state", file])
            #expect(restored.stderr.contains("restored state"), "\(restored.stderr)")
            let after = try Self.joinLines(restored)
            #expect(after.scene == before.scene, "scene bytes differ:\n\(before.scene)\n\(after.scene)")
            #expect(after.snapshot == before.snapshot, "snapshot bytes differ:\n\(before.snapshot)\n\(after.snapshot)")
            try? FileManager.default.removeItem(at: dir)
        }

        @Test(.timeLimit(.minutes(5))) func aWorldSurvivesSIGKILLLosingAtMostTheLastInterval() throws {
            let dir = try Self.stateDirectory()
            let file = dir.appendingPathComponent("world.json").path
            let first = try ServerProcess(["--scene", "empty", "--state", file, "--state-interval", "0.2"])
            let client = try first.connect()
            _ = client.join()
            let body = try #require(try client.ack(##"{"id":1,"type":"spawn","shape":"rect","width":44,"height":33,"x":400,"y":100,"color":"#abcdef"}"##, id: 1)?.number("body"))
            // Wait until a save holds the new item, then kill the server without warning.
            let deadline = Date().addingTimeInterval(10)
            var saved = ""
            while !saved.contains("#abcdef"), Date() < deadline {
                saved = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                if !saved.contains("#abcdef") { _ = poll(nil, 0, 20) }
            }
            #expect(saved.contains("#abcdef"), "a periodic save happened")
            first.signal(SIGKILL)
            _ = first.waitForExit(timeout: 10)
            let second = try ServerProcess(["--scene", "default", "--state", file])
            let scene = try #require(try second.connect().join().scene)
            #expect(scene.name == "empty")
            #expect(scene.bodies.map(\.id) == [Int(body)])
            #expect(scene.bodies.first?.color == "#abcdef" && scene.bodies.first?.width == 44)
            try? FileManager.default.removeItem(at: dir)
        }

        @Test(.timeLimit(.minutes(5)), arguments: ["{\"format\":\"dynserver-state\",\"version\":1,\"world\":{\"wid",
                          "\u{0}\u{1}garbage\u{7f}",
                          "{\"format\":\"dynserver-state\",\"version\":1,\"world\":{\"width\":10,\"height\":10},\"end\":true}"])
        func aBadStateFileIsReportedKeptAsideAndTheSceneLoads(content: String) throws {
            let dir = try Self.stateDirectory()
            let file = dir.appendingPathComponent("world.json").path
            try content.write(toFile: file, atomically: false, encoding: .utf8)
            let server = try ServerProcess(["--scene", "collision", "--state", file])
            #expect(server.stderr.contains("state file \(file) is unusable"), "\(server.stderr)")
            let scene = try #require(try server.connect().join().scene)
            #expect(scene.name == "collision", "the server started with --scene")
            let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("world.json.bad-") }
            #expect(kept.count == 1, "\(kept)")
            if let name = kept.first {
                #expect(try String(contentsOfFile: dir.appendingPathComponent(name).path, encoding: .utf8) == content,
                        "the bad file is kept byte for byte")
            }
            try? FileManager.default.removeItem(at: dir)
        }

        @Test(.timeLimit(.minutes(5))) func aStatePathThatIsNotARegularFileIsRefusedAndLeftAlone() throws {
            // A directory stands for every file that is not a regular one (a device such as /dev/null, a pipe):
            // saving renames over the path and a bad file is moved aside, which must never happen to those.
            let dir = try Self.stateDirectory()
            var message = ""
            do {
                let server = try ServerProcess(["--scene", "default", "--state", dir.path], startupTimeout: 10)
                Issue.record("the server started on port \(server.port)")
            } catch {
                message = "\(error)"
            }
            #expect(message.contains("--state \(dir.path): not a regular file"), "\(message)")
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory) && isDirectory.boolValue)
            let parent = dir.deletingLastPathComponent().path
            let movedAside = try FileManager.default.contentsOfDirectory(atPath: parent)
                .filter { $0.hasPrefix(dir.lastPathComponent + ".bad-") || $0 == dir.lastPathComponent + ".tmp" }
            #expect(movedAside.isEmpty, "\(movedAside)")
            try? FileManager.default.removeItem(at: dir)
        }
    }
}
