import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `dynbench link` in front of `target`, on a port of its own, once it accepts connections.
final class DynbenchLink {
    let process = Process()
    let port: UInt16

    init(target: UInt16, delayMs: Int = 75) throws {
        port = try TCPSocket.freePort()
        process.executableURL = URL(fileURLWithPath: BenchProcess.path)
        process.arguments = ["link", "--delay-ms", String(delayMs), "--jitter-ms", "0",
                             "listen", String(port), "target", "127.0.0.1:\(target)"]
        process.standardOutput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        let port = port
        let up = Reliability.eventually(timeout: 10) {
            guard let fd = try? TCPSocket.connect(port: port) else { return false }
            close(fd)
            return true
        }
        if !up { throw EndToEndError("dynbench link did not listen on \(port)") }
    }

    deinit {
        process.terminate()
        _ = ChildProcess.waitForExit(process, timeout: 5)
    }
}

extension EndToEnd {
    /// `dynbench link` delays every byte and loses none: a server that answers and closes (the HTTP front end)
    /// is answered in full through it (it once closed both sides at once and the page got empty replies).
    @Suite(.serialized, .timeLimit(.minutes(1))) struct DynbenchLinkTests {
        @Test func anAnswerFollowedByACloseArrivesWhole() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let http = try #require(server.httpPort)
            let link = try DynbenchLink(target: http)
            for path in ["/", "/web/drawing.js"] {
                let direct = try #require(try HTTPReply.get(port: http, path))
                let delayed = try #require(try HTTPReply.get(port: link.port, path), "no answer through the link for \(path)")
                #expect(delayed.status == 200 && delayed.body == direct.body && !direct.body.isEmpty, "\(path): \(delayed.status)")
            }
            withExtendedLifetime((server, link)) {}
        }
    }
}
