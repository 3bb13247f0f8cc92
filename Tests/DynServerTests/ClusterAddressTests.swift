import Testing
@testable import DynRoom
@testable import dynserver

/// `--cluster redis://HOST:PORT[/DB]` and the room summaries kept in Redis (docs/DEPLOY.md).
@Suite struct ClusterAddressTests {
    @Test(.timeLimit(.minutes(1))) func redisAddressesParseWithTheirDefaults() throws {
        let full = try RedisAddress(parsing: "redis://127.0.0.1:6380/2")
        #expect(full.host == "127.0.0.1" && full.port == 6380 && full.database == 2)
        let plain = try RedisAddress(parsing: "redis://cache")
        #expect(plain.host == "cache" && plain.port == 6379 && plain.database == 0)
        let v6 = try RedisAddress(parsing: "redis://[::1]:7000")
        #expect(v6.host == "::1" && v6.port == 7000)
    }

    @Test(.timeLimit(.minutes(1))) func aPasswordInTheURLIsKeptAndNeverShown() throws {
        let secured = try RedisAddress(parsing: "redis://:p%40ss@10.0.0.5:6380/3")
        #expect(secured.password == "p@ss" && secured.host == "10.0.0.5" && secured.port == 6380 && secured.database == 3)
        #expect(!secured.description.contains("p@ss") && !secured.description.contains("p%40ss"))
        #expect(try RedisAddress(parsing: "redis://user:pw@cache").password == "pw", "a user name is ignored")
        #expect(try RedisAddress(parsing: "redis://cache").password == nil)
        for bad in ["redis://pw@cache", "redis://:@cache", "redis://:%zz@cache"] {
            #expect(throws: ServerStartError.self, "\(bad)") { try RedisAddress(parsing: bad) }
        }
    }

    @Test(.timeLimit(.minutes(1))) func badRedisAddressesAreRefusedWithTheReason() {
        for bad in ["127.0.0.1:6379", "redis://", "redis://host:0", "redis://host:70000", "redis://host:6379/16", "redis://host:x"] {
            #expect(throws: ServerStartError.self, "\(bad)") { try RedisAddress(parsing: bad) }
        }
    }

    @Test(.timeLimit(.minutes(1))) func summariesSurviveTheirRedisForm() throws {
        let summary = RoomSummary(name: "lab", clients: 3, bodies: 17, scene: "snap", paused: true, held: false, loaded: true)
        let text = ClusterScripts.encode(summary)
        let back = try #require(ClusterScripts.decode(name: "lab", text))
        #expect(back.clients == 3 && back.bodies == 17 && back.scene == "snap" && back.paused && !back.held)
        #expect(ClusterScripts.decode(name: "lab", "garbage") == nil)
    }
}
