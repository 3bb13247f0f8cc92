import ArgumentParser
import Foundation
import NetProtocol
import NetLoop

/// `dynbench rooms --mode heavy` (SPEC Part L): one heavy room beside `main`. A client creates `big`, fills
/// it with `--bodies` 8×8 boxes, and then (1) holds it and sends `step --steps`, (2) lets them fall for
/// `--seconds`; meanwhile a client in `main` (the default scene, full snapshots) counts its snapshots, pings
/// every 100 ms and taps every 500 ms (so main never comes to rest: a resting room sends only keep-alives, and
/// its snapshot rate would then say nothing about whether the heavy room delays it). Per `--threads` value ("default" passes none): main's snapshots per second and ping
/// p50/p99/worst in each phase.
extension RoomsBench {
    struct HeavyPhase {
        var snapshotsPerSecond = 0.0
        var pingsMs: [Double] = []

        var json: String {
            let sorted = pingsMs.sorted()
            func at(_ q: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
            return "{\"main_snapshots_per_s\":\(RoomsBench.round(snapshotsPerSecond)),\"pings\":\(sorted.count),"
                + "\"ping_p50_ms\":\(RoomsBench.round(at(0.5))),\"ping_p99_ms\":\(RoomsBench.round(at(0.99))),"
                + "\"ping_worst_ms\":\(RoomsBench.round(sorted.last ?? 0))}"
        }
    }

    func heavy() throws {
        var entries: [String] = []
        for setting in threads.split(separator: ",").map(String.init) {
            let extra = setting == "default" ? [] : ["--threads", setting]
            let server = try BenchServer.start(path: serverPath, clients: 8,
                                               limits: ["--rate", "1000000", "--burst", "1000000", "--max-bodies", "\(bodies + 10)",
                                                        // main is the showcase, moving at 30 snapshots a second.
                                                        "--scene", "default", "--world", "800x600"] + extra)
            defer { server.stop() }
            let main = try BenchSocket(port: server.port)
            guard main.tick(id: 1) != nil else { throw ValidationError("main did not answer") }
            let big = try BenchSocket(port: server.port)
            try big.send(#"{"type":"subscribe","snapshots":"none","notices":false}"#)
            try big.send(#"{"type":"join","room":"big","scene":"empty","id":1}"#)
            try big.send(#"{"type":"pause","id":2}"#)
            var spawns = ""
            for i in 0..<bodies {
                spawns += #"{"type":"spawn","shape":"rect","width":8,"height":8,"x":\#(10 + Double(i % 85) * 9),"y":\#(10 + Double(i / 85) * 9)}"# + "\n"
            }
            try big.send(Array(spawns.utf8))
            guard big.tick(id: 3, timeout: 300) != nil else { throw ValidationError("big did not answer") }
            try big.send(#"{"type":"step","id":4,"ticks":\#(steps)}"#)
            let stepping = measureMain(main, until: { big.nextLine(timeout: 0.001).map { Self.isAnswer($0, id: 4) } ?? false }, limit: 600)
            try big.send(#"{"type":"resume","id":5}"#)
            let start = EventLoop.hrtimeNs
            let running = measureMain(main, until: { EventLoop.hrtimeNs - start > UInt64(seconds * 1e9) }, limit: seconds + 5)
            FileHandle.standardError.write(Data("threads \(setting): stepping \(stepping.json), running \(running.json)\n".utf8))
            entries.append("{\"threads\":\"\(setting)\",\"while_stepping\":\(stepping.json),\"while_running\":\(running.json)}")
        }
        print("{\"bench\":\"rooms\",\"mode\":\"heavy\",\"bodies\":\(bodies),\"steps\":\(steps),\"seconds\":\(seconds),\"runs\":[\(entries.joined(separator: ","))]}")
    }

    private static func isAnswer(_ line: [UInt8], id: Int) -> Bool {
        guard let message = line.withUnsafeBytes({ ServerMessage.decode($0) }) else { return false }
        switch message {
        case .ack(let echo, _): return echo == .number(String(id))
        case .error(let error): return error.id == .number(String(id))
        default: return false
        }
    }

    /// Reads main's lines until `done`: snapshots per second, and a ping every 100 ms timed to its pong.
    private func measureMain(_ main: BenchSocket, until done: () -> Bool, limit: Double) -> HeavyPhase {
        main.drain()
        var phase = HeavyPhase()
        var snapshots = 0
        var sent: [Int: UInt64] = [:]
        var nextPing = 0
        let start = EventLoop.hrtimeNs
        var lastPingNs: UInt64 = 0
        var lastTapNs: UInt64 = 0
        var taps = 0
        while !done(), EventLoop.hrtimeNs - start < UInt64(limit * 1e9) {
            let now = EventLoop.hrtimeNs
            if now - lastTapNs >= 500_000_000 {
                lastTapNs = now
                taps += 1
                try? main.send(#"{"type":"tap","x":\#(taps % 2 == 0 ? 200 : 600),"y":300}"#)
            }
            if now - lastPingNs >= 100_000_000 {
                nextPing += 1
                sent[nextPing] = now
                lastPingNs = now
                try? main.send(#"{"type":"ping","id":\#(1000 + nextPing)}"#)
            }
            guard let line = main.nextLine(timeout: 0.01),
                  let message = line.withUnsafeBytes({ ServerMessage.decode($0) }) else { continue }
            switch message {
            case .snapshot: snapshots += 1
            case .pong(_, _, .number(let echo)?):
                if let id = Int(echo), let at = sent.removeValue(forKey: id - 1000) {
                    phase.pingsMs.append(Double(EventLoop.hrtimeNs - at) / 1e6)
                }
            default: break
            }
        }
        let elapsed = Double(EventLoop.hrtimeNs - start) / 1e9
        // Pings never answered count as the whole phase.
        phase.pingsMs += sent.values.map { Double(EventLoop.hrtimeNs - $0) / 1e6 }
        phase.snapshotsPerSecond = Double(snapshots) / max(elapsed, 1e-9)
        return phase
    }
}
