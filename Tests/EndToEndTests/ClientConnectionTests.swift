import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// What `dynclient` tells about its connection: the status line at 80 x 24, the banner while the server
    /// is away and its disappearance when it returns, a token server without `--token`, and the selection
    /// visible without colour.
    @Suite(.serialized) struct ClientConnectionTests {
        @Test(.timeLimit(.minutes(5))) func eightyByTwentyFourShowsTheConnectionAndTheScene() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"], columns: 80, rows: 24, awaitConnected: false)
            let shown = session.client.waitForScreen { $0.text(row: 23).hasPrefix(" connected | scene default | ") }
            #expect(shown, "\(session.client.screen.text)")
            // The hint bar sits above it, whole.
            #expect(session.client.screen.text(row: 22).hasPrefix("?help :cmd 1-9 scene"))
            #expect(session.client.screen.text(row: 22).contains("q quit"))
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func theBannerShowsWhileTheServerIsAwayAndGoesWhenItReturns() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            let port = session.server.port
            let rows = ClientSession.rows
            kill(session.server.pid, SIGKILL)
            let down = session.client.waitForScreen { screen in
                screen.contains(" disconnected ") && screen.text(row: rows - 1).hasPrefix(" reconnecting in ")
                    && screen.dimCount(rows: 0..<(rows - 2)) > 100
            }
            #expect(down, "\(session.client.screen.text)")
            // The new server takes the old one's TCP port once the old process is gone (its sockets with it).
            // Not its HTTP port: that was ephemeral and PORT + 1 may belong to any other socket of this machine
            // (the restart used to die binding it, "closed stdout before listening"); the client needs TCP only.
            #expect(session.server.waitForExit(timeout: 10) != nil, "the killed server was reaped")
            let again = try FixedPortServer.restart(on: (tcp: port, http: nil), ["--scene", "snap", "--no-http"])
            #expect(again.port == port)
            let up = session.client.waitForScreen(timeout: 15) { screen in
                !screen.contains(" disconnected ") && screen.text(row: rows - 1).hasPrefix(" connected | scene snap |")
                    && screen.dimCount(rows: 0..<(rows - 2)) == 0
            }
            #expect(up, "\(session.client.screen.text)")
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func aTokenServerWithoutTokenSaysSoAndATypedHelloLetsUsIn() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default", "--token", "s3cret"], awaitConnected: false)
            let rows = ClientSession.rows
            #expect(session.client.waitForScreen { $0.text(row: rows - 1).hasPrefix(" unauthorized: give --token |") },
                    "\(session.client.screen.text)")
            #expect(session.client.screen.contains("unauthorized: this server needs a token"))
            session.client.type(":hello token=s3cret\r")
            #expect(session.client.waitForScreen { $0.text(row: rows - 1).hasPrefix(" connected | scene default |") },
                    "\(session.client.screen.text)")
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func withoutColourTheSelectionShowsInReverseVideo() throws {
            var body = 0
            let session = try ClientSession(environment: ["NO_COLOR": "1"]) { control in body = try ClientSession.box(control) }
            let world = 0..<(ClientSession.rows - 2)
            // Only the keyboard cursor is in reverse video before anything is selected.
            #expect(session.client.waitForScreen { $0.reverseCount(rows: world) <= 1 })
            let before = session.client.screen.cells
            session.client.type("\t")
            // The 100 x 100 box covers 10 x 5 cells: all of them turn reverse.
            #expect(session.client.waitForScreen { $0.reverseCount(rows: world) >= 45 }, "\(session.client.screen.text)")
            #expect(session.client.screen.cells != before)
            #expect(session.client.screen.text(row: ClientSession.rows - 1).contains("sel #\(body)"))
            session.quit()
        }
    }
}
