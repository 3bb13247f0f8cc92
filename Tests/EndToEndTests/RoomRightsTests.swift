import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Rights in rooms (docs/PROTOCOL.md, Rooms): the admin token is admin everywhere; a room's creator and
    /// whoever joins with its `room_token` are admin in that room only; without `--admin-token` everyone is
    /// admin everywhere, as before rooms.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RoomRightsTests {
        private func spawn(_ client: LineClient, id: Int) throws -> ServerMessage? {
            try client.request("{\"type\":\"spawn\",\"id\":\(id),\"shape\":\"rect\",\"width\":20,\"height\":20,\"x\":100,\"y\":100}",
                               id: .number(String(id)))
        }

        private func isAck(_ message: ServerMessage?) -> Bool { if case .ack? = message { true } else { false } }
        private func code(_ message: ServerMessage?) -> ErrorCode? { if case .error(let e)? = message { e.code } else { nil } }

        @Test func creatorAndRoomTokenHoldersAreAdminInTheirRoomOnly() throws {
            let server = try ServerProcess(["--scene", "empty", "--admin-token", "A"])
            let creator = try server.connect()
            _ = creator.join()
            #expect(code(try spawn(creator, id: 1)) == .forbidden, "main stays protected")
            let created = try creator.joinRoom("pair1", id: 2)
            #expect(created.admin == true)
            let token = try #require(created.roomToken)
            #expect(isAck(try spawn(creator, id: 3)), "the creator is admin in its room")

            let guest = try server.connect()
            _ = guest.join()
            let plain = try guest.joinRoom("pair1", id: 1)
            #expect(plain.admin == false)
            #expect(code(try spawn(guest, id: 2)) == .forbidden, "joining without the token gives no rights")
            let wrong = try guest.joinRoom("pair1", #""room_token":"nope""#, id: 3)
            #expect(wrong.admin == false)
            #expect(code(try spawn(guest, id: 4)) == .forbidden)
            let holder = try guest.joinRoom("pair1", #""room_token":"\#(token)""#, id: 5)
            #expect(holder.admin == true && holder.created == false)
            #expect(isAck(try spawn(guest, id: 6)), "the room_token makes it admin in the room")

            // The rights stay in the room: back in main, and in another room, the holder is not admin.
            _ = try #require(try guest.joinRoom("main", id: 7).ack)
            #expect(code(try spawn(guest, id: 8)) == .forbidden)
            _ = try #require(try creator.joinRoom("pair2", id: 9).ack)
            let other = try guest.joinRoom("pair2", #""room_token":"\#(token)""#, id: 10)
            #expect(other.admin == false, "pair1's token means nothing in pair2")
            #expect(code(try spawn(guest, id: 11)) == .forbidden)

            // The admin token is admin in every room, one it did not create included.
            let admin = try server.connect()
            _ = admin.join()
            #expect(try admin.ack(.hello(name: "teacher", token: "A", protocolVersion: 1), id: 1)?.first { $0.0 == "admin" }?.1 == .bool(true))
            #expect(isAck(try spawn(admin, id: 2)))
            #expect(try admin.joinRoom("pair1", id: 3).admin == true)
            #expect(isAck(try spawn(admin, id: 4)))
            withExtendedLifetime(server) {}
        }

        @Test func helloCarriesTheRoomTokenToReturnAsAdmin() throws {
            let server = try ServerProcess(["--scene", "empty", "--admin-token", "A"])
            let creator = try server.connect()
            _ = creator.join()
            let token = try #require(try creator.joinRoom("lab", id: 1).roomToken)
            let returning = try server.connect()
            _ = returning.join()
            try returning.send(#"{"type":"hello","id":1,"name":"back","room":"lab","room_token":"\#(token)"}"#)
            let answer = returning.readJoin(id: 1)
            #expect(answer.room == "lab" && answer.admin == true)
            #expect(isAck(try spawn(returning, id: 2)))
            withExtendedLifetime(server) {}
        }

        @Test func withoutAnAdminTokenEveryoneIsAdminEverywhere() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let creator = try server.connect()
            _ = creator.join()
            _ = try #require(try creator.joinRoom("lab", id: 1).ack)
            let guest = try server.connect()
            _ = guest.join()
            #expect(try guest.joinRoom("lab", id: 1).admin == true)
            #expect(isAck(try spawn(guest, id: 2)))
            #expect(isAck(try spawn(creator, id: 3)))
            withExtendedLifetime(server) {}
        }
    }
}
