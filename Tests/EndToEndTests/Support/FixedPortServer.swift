import Foundation

/// A `dynserver` on known ports, so that a test can kill it and start another on the same ports (clients
/// reconnect to the address they know): TCP on an even port P, HTTP on P + 1, the server's default
/// (README.md), so that what a client derives from P is what the server serves.
enum FixedPortServer {
    /// A server on a free pair (P, P + 1), tried at up to 20 random pairs.
    static func start(_ arguments: [String] = []) throws -> ServerProcess {
        var lastError: Error = EndToEndError("no free port pair")
        for _ in 0..<20 {
            let port = Int.random(in: 20_000...29_999) * 2
            do {
                return try ServerProcess(["--port", String(port), "--http-port", String(port + 1)] + arguments)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// Another server on the ports `previous` had (which must be gone): retried for a few seconds while the
    /// old sockets are released.
    static func restart(on previous: (tcp: UInt16, http: UInt16?), _ arguments: [String] = []) throws -> ServerProcess {
        let deadline = Date().addingTimeInterval(10)
        var ports = ["--port", String(previous.tcp)]
        if let http = previous.http { ports += ["--http-port", String(http)] }
        while true {
            do {
                return try ServerProcess(ports + arguments)
            } catch {
                if Date() >= deadline { throw error }
                usleep(200_000)
            }
        }
    }
}
