import Testing
@testable import DynRoom
@testable import dynserver

@Suite struct TickClockTests {
    @Test(.timeLimit(.minutes(3))) func sixtySecondsAtSixtyHertzIsThirtySixHundredTicksWhateverTheWakeups() {
        var clock = TickClock(hz: 60, startNs: 1_000)
        var now: UInt64 = 1_000
        var total: UInt64 = 0
        // Wake-ups at uneven, late intervals (17, 16, 20 ms ...), as a real timer does.
        let steps: [UInt64] = [17, 16, 20, 17, 33, 16, 17]
        var i = 0
        while now < 1_000 + 60_000_000_000 {
            now += steps[i % steps.count] * 1_000_000
            i += 1
            total += clock.due(nowNs: min(now, 1_000 + 60_000_000_000))
        }
        #expect(total == 3600)
        #expect(clock.skippedTicks == 0)
    }

    @Test(.timeLimit(.minutes(3))) func nextDelayNeverFiresEarly() {
        var clock = TickClock(hz: 60, startNs: 0)
        _ = clock.due(nowNs: 0)
        let ms = clock.msUntilNext(nowNs: 0)
        #expect(ms == 17)   // 16.67 ms rounded up
        let ran = clock.due(nowNs: ms * 1_000_000)
        #expect(ran == 1)
    }

    @Test(.timeLimit(.minutes(3))) func aLongStallRunsAtMostMaxCatchUpTicksAndMovesTheScheduleOn() {
        var clock = TickClock(hz: 60, startNs: 0, maxCatchUp: 8)
        let first = clock.due(nowNs: 10_000_000_000)     // 600 ticks were due
        #expect(first == 8)
        #expect(clock.skippedTicks == 592)
        let next = clock.due(nowNs: 10_000_000_000 + 16_700_000)
        #expect(next == 1)
    }

    @Test(.timeLimit(.minutes(3))) func ticksGivenBackAreDueAgainAtOnce() {
        var clock = TickClock(hz: 60, startNs: 0)
        let due = clock.due(nowNs: 100_000_000)          // 6 ticks due
        #expect(due == 6)
        clock.giveBack(4)
        let again = clock.due(nowNs: 100_000_001)
        #expect(again == 4)
        #expect(clock.msUntilNext(nowNs: 100_000_001) >= 1)
    }
}
