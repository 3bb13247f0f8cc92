import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// One test per server fault the reliability suite exposed, each failing before its fix.
    @Suite(.serialized)
    struct ReliabilityRegressionTests {
        @Test(.timeLimit(.minutes(15))) func theSnapshotAJoiningClientGetsCountsThatClient() throws {
            let server = try ServerProcess(["--scene", "push"])
            let first = try server.connect()
            #expect(try #require(first.join().snapshot).clients == 1)
            let second = try server.connect()
            #expect(try #require(second.join().snapshot).clients == 2)
            let third = try server.connect()
            #expect(try #require(third.join().snapshot).clients == 3)
        }

        @Test(.timeLimit(.minutes(15))) func whenStepsAreSlowTheLoopAnswersBetweenEverySingleTick() throws {
            // 200 items at one point make each step far slower than a tick period (in a debug build). The loop
            // used to re-arm its tick timer with 0 ms when behind, which libuv 1.44 runs again at once, and to
            // catch up 8 ticks per turn: pings waited until the physics caught up (20 s and more). Now sockets
            // are read after every single step, so a ping waits a tick or two.
            let server = try ServerProcess(["--scene", "empty", "--rate", "100000", "--burst", "100000"])
            let admin = try server.connect()
            _ = try #require(admin.join().welcome)
            var pile: [UInt8] = []
            for i in 1...200 {
                pile += Array(#"{"type":"spawn","shape":"rect","width":10,"height":10,"x":400,"y":300,"id":\#(i)}"#.utf8) + [0x0A]
            }
            try admin.sendRaw(pile)
            #expect(admin.answer(to: .int(200), timeout: 30) != nil)
            let pinger = try server.connect()
            var newest = try #require(pinger.join().snapshot).tick
            // Each ping goes out right after the pinger has read every line already delivered to it. The pong's
            // tick minus the newest tick known by then (a snapshot read, or the previous pong) is how many steps
            // the server ran with the ping waiting in its socket, give or take the snapshot period: the server's
            // own count, not the time this client took to turn round (a loaded machine's business). A loop that
            // reads between every step answers within a few ticks; the old loop answered hundreds later.
            let prefix = #"{"type":"snapshot","tick":"#
            var waits: [UInt64] = []
            for round in 0..<7 {
                while let line = pinger.nextLine(timeout: 0) {
                    if line.hasPrefix(prefix), let tick = UInt64(line.dropFirst(prefix.count).prefix { $0.isNumber }) {
                        newest = max(newest, tick)
                    }
                }
                guard case let .pong(_, tick, _)? = try pinger.request(.ping(t: nil), id: .string("wait-\(round)"), timeout: 30) else {
                    Issue.record("no pong to ping \(round)")
                    return
                }
                // The first ping only starts the count: the join's snapshot may be older than the loop's pace.
                if round > 0 { waits.append(tick - min(tick, newest)) }
                newest = max(newest, tick)
            }
            let bound: UInt64 = Reliability.measuresTiming ? 3 : 8
            #expect(waits.allSatisfy { $0 <= bound }, "ticks the server ran with a ping waiting in its socket: \(waits)")
        }

        @Test(.timeLimit(.minutes(15))) func sigtermEndsTheServerEvenWhenItsParentBlockedTheSignal() throws {
            // A child inherits its parent's signal mask (test runners and libdispatch threads block SIGTERM);
            // the server used to keep that mask, so SIGINT and SIGTERM stayed pending forever.
            var blocked = sigset_t(), previous = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            sigaddset(&blocked, SIGINT)
            pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            let started = Result { try ServerProcess() }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            let server = try started.get()
            let client = try server.connect()
            _ = try #require(client.join().welcome)
            server.signal(SIGTERM)
            #expect(server.waitForExit(timeout: 5) == 0)
            #expect(client.linesUntilClosed(timeout: 5).last == #"{"type":"bye","reason":"shutdown"}"#)
        }
    }
}
