import NetProtocol
import Testing

extension EndToEnd {
    /// Issue 6: one test per server fault the reliability suite exposed, each failing before its fix.
    @Suite(.serialized)
    struct ReliabilityRegressionTests {
        @Test func theSnapshotAJoiningClientGetsCountsThatClient() throws {
            let server = try ServerProcess(["--scene", "push"])
            let first = try server.connect()
            #expect(try #require(first.join().snapshot).clients == 1)
            let second = try server.connect()
            #expect(try #require(second.join().snapshot).clients == 2)
            let third = try server.connect()
            #expect(try #require(third.join().snapshot).clients == 3)
        }
    }
}
