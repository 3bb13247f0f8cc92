import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import NetProtocol
import NetLoop

/// `dynbench link --delay-ms D --jitter-ms J --rate-kbit R -- listen PORT target HOST:PORT`: a loopback proxy
/// that makes every connection through it behave like a home connection (per direction).
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Proxy TCP through a simulated link (delay, jitter, bandwidth cap per direction, order kept).")

    @Option(help: "One-way delay per direction, ms.") var delayMs: Double = 50
    @Option(help: "Uniform jitter, ± ms (order is kept).") var jitterMs: Double = 10
    @Option(help: "Bandwidth cap per direction, kbit/s.") var rateKbit: Double = 8000
    @Argument(help: "listen PORT target HOST:PORT") var words: [String]

    func validate() throws {
        guard words.count == 4, words[0] == "listen", words[2] == "target", Int(words[1]) != nil,
              words[3].contains(":") else { throw ValidationError("expected: listen PORT target HOST:PORT") }
        guard delayMs >= 0, jitterMs >= 0, jitterMs <= delayMs || delayMs == 0, rateKbit > 0 else {
            throw ValidationError("--delay-ms and --jitter-ms must be >= 0 (jitter <= delay), --rate-kbit > 0")
        }
    }

    func run() throws {
        let loop = try EventLoop()
        let hostPort = words[3]
        let colon = hostPort.lastIndex(of: ":")!
        let target = try SocketAddress(host: String(hostPort[..<colon]), port: Int(hostPort[hostPort.index(after: colon)...]) ?? 0)
        let proxy = try LinkProxy(loop: loop, listenPort: Int(words[1])!, target: target,
                                  shape: .init(delayMs: delayMs, jitterMs: jitterMs, rateKbit: rateKbit))
        print("dynbench link listening on \(proxy.address.map { "\($0)" } ?? "?") -> \(target)")
        let stop = try SignalWatcher(loop: loop, signal: SIGINT) { _ in proxy.close(); loop.closeAllHandles() }
        let term = try SignalWatcher(loop: loop, signal: SIGTERM) { _ in proxy.close(); loop.closeAllHandles() }
        loop.run()
        withExtendedLifetime((stop, term)) {}
    }
}
