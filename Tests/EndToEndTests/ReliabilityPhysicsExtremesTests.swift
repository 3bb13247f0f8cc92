import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Physics extremes through the protocol (docs/UIKIT.md: nothing may make a position or velocity
    /// NaN or infinite, or let an item leave the world): every snapshot line read during the run is checked
    /// by `SnapshotSanity` (finite numbers, no NaN written as 0, every centre inside the world with a margin
    /// of the item's half-diagonal).
    @Suite(.serialized)
    struct ReliabilityPhysicsExtremesTests {
        /// Reads and checks every line with `sanity` until `snapshots` more snapshots were checked (a count of the
        /// world's output, the same on a fast and a loaded machine), or until the 60 s deadline; returns how many
        /// it checked.
        static func watch(_ client: LineClient, snapshots: Int, _ sanity: inout SnapshotSanity) -> Int {
            let before = sanity.snapshotsChecked
            let deadline = Date().addingTimeInterval(60)
            while sanity.snapshotsChecked - before < snapshots,
                  let line = client.nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
                sanity.check(line: line)
            }
            return sanity.snapshotsChecked - before
        }

        /// The server met no NaN or infinity on its way to the wire: the encoders write one as 0 (so the snapshots'
        /// `isFinite` checks cannot see it) and count it in `dyn_nonfinite_values_total` (docs/PROTOCOL.md, Metrics).
        static func expectNoNonFiniteValues(_ server: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let http = try #require(server.httpPort)
            let met = try MetricsScrape.fetch(port: http).value("dyn_nonfinite_values_total", sourceLocation: sourceLocation)
            #expect(met == 0, "the encoders met \(met) non-finite values (written as 0)", sourceLocation: sourceLocation)
        }

        /// A server on the `push` scene (one 80 x 80 item in the middle, no gravity) and a joined client.
        static func pushScene() throws -> (ServerProcess, LineClient, Int, SnapshotSanity) {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let joined = client.join()
            let scene = try #require(joined.scene)
            let body = try #require(scene.bodies.first?.id)
            return (server, client, body, SnapshotSanity(width: 800, height: 600, scene: scene))
        }

        @Test(.timeLimit(.minutes(15))) func pushOfMagnitudeABillionKeepsEverySnapshotFiniteAndInside() throws {
            let (server, client, body, initial) = try Self.pushScene()
            var sanity = initial
            #expect(try client.ack(#"{"type":"push","body":\#(body),"angle":0.3,"magnitude":1e9,"mode":"instantaneous","id":1}"#, id: 1) != nil)
            #expect(Self.watch(client, snapshots: 11, &sanity) == 11)
            #expect(try client.ack(#"{"type":"push","body":\#(body),"dx":-1e9,"dy":7e8,"id":2}"#, id: 2) != nil)
            #expect(Self.watch(client, snapshots: 11, &sanity) == 11)
            #expect(sanity.violations.isEmpty, "\(sanity.violations.prefix(5))")
            #expect(server.probe.isAlive)
            try Self.expectNoNonFiniteValues(server)
        }

        @Test(.timeLimit(.minutes(15))) func snapAMillionPointsAwayKeepsEverySnapshotFiniteAndInside() throws {
            let (server, client, body, initial) = try Self.pushScene()
            var sanity = initial
            let answer = try client.request(#"{"type":"snap","body":\#(body),"x":1e6,"y":-1e6,"damping":0,"id":1}"#, id: .int(1))
            switch answer {
            case .ack?: break
            case .error(let error)?: #expect(error.code == .badValue, "\(error.message)")
            default: Issue.record("snap far away answered \(String(describing: answer))")
            }
            #expect(Self.watch(client, snapshots: 11, &sanity) == 11)
            #expect(sanity.violations.isEmpty, "\(sanity.violations.prefix(5))")
            #expect(client.answersPing())
            #expect(server.probe.isAlive)
            try Self.expectNoNonFiniteValues(server)
        }

        @Test(.timeLimit(.minutes(15))) func dragFarOutsideTheWorldKeepsEverySnapshotFiniteAndInside() throws {
            let (server, client, body, initial) = try Self.pushScene()
            var sanity = initial
            #expect(try client.ack(#"{"type":"drag","phase":"begin","x":400,"y":300,"body":\#(body),"id":1}"#, id: 1) != nil)
            for (index, point) in [(1e6, -1e6), (-1e9, 1e9), (400, 1e12), (-3e5, 300)].enumerated() {
                let answer = try client.request(#"{"type":"drag","phase":"move","x":\#(point.0),"y":\#(point.1),"id":\#(index + 2)}"#,
                                                id: .int(index + 2))
                if case .error(let error)? = answer { #expect(error.code == .badValue, "\(error.message)") }
                #expect(Self.watch(client, snapshots: 6, &sanity) == 6)
            }
            #expect(sanity.violations.isEmpty, "\(sanity.violations.prefix(5))")
            #expect(client.answersPing())
            #expect(server.probe.isAlive)
            try Self.expectNoNonFiniteValues(server)
        }

        @Test(.timeLimit(.minutes(15))) func itemsSpawnedAtOnePointStayFiniteAndInside() throws {
            // 2 000 under `make soak` (release server); a debug build steps O(n^2) overlapping pairs too slowly
            // for that in `make test`, so the quick run piles fewer (DYN_PILE overrides).
            let count = Reliability.count("DYN_PILE", quick: 120, soak: 2_000)
            let server = try ServerProcess(["--scene", "empty", "--rate", "100000", "--burst", "100000"])
            let client = try server.connect()
            _ = try #require(client.join().welcome)
            var pile: [UInt8] = []
            for i in 1...count {
                pile += Array(#"{"type":"spawn","shape":"rect","width":12,"height":8,"x":400,"y":300,"id":\#(i)}"#.utf8) + [0x0A]
            }
            try client.sendRaw(pile)
            var sanity = SnapshotSanity(width: 800, height: 600, scene: nil)
            var acked = 0
            let deadline = Date().addingTimeInterval(Reliability.isSoak ? 120 : 15)
            while acked < count, Date() < deadline, let line = client.nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
                if line.hasPrefix(#"{"type":"ack""#) { acked += 1 }
                sanity.check(line: line)
            }
            #expect(acked == count)
            let watched = Reliability.isSoak ? 600 : 30
            #expect(Self.watch(client, snapshots: watched, &sanity) == watched)
            #expect(sanity.halfDiagonals.count == count, "the scene lists every spawned item")
            #expect(sanity.violations.isEmpty, "\(sanity.violations.prefix(5))")
            #expect(client.answersPing(timeout: 30))
            try Self.expectNoNonFiniteValues(server)
        }
    }
}
