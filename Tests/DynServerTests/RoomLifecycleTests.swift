import Testing
@testable import dynserver

/// The fleet room's state machine (docs/ARCHITECTURE.md, The room lifecycle in a fleet): every transition
/// from its source phase, every transition refused from the others, and the deadline arithmetic.
@Suite(.timeLimit(.minutes(1))) struct RoomLifecycleTests {
    private static let ms: UInt64 = 1_000_000
    private static let held = RoomLifecycle.heldAfterNs

    /// A lifecycle in `phase`, reached through the transitions themselves; `answers` collects what its
    /// waiters were told.
    private final class Answers { var got: [RoomLifecycle.ClaimOutcome] = [] }

    private static func lifecycle(_ phase: RoomLifecycle.Phase, answers: Answers = Answers()) -> RoomLifecycle {
        var lifecycle = RoomLifecycle(claimFor: { answers.got.append($0) })
        switch phase {
        case .claiming: break
        case .live: _ = lifecycle.claimed(epoch: "7", sentNs: 1000 * ms, restore: .init())
        case .fenced:
            _ = lifecycle.claimed(epoch: "7", sentNs: 1000 * ms, restore: .init())
            _ = lifecycle.checkDeadline(nowNs: 1000 * ms + held)
        case .releasing:
            _ = lifecycle.claimed(epoch: "7", sentNs: 1000 * ms, restore: .init())
            _ = lifecycle.release()
        case .gone: _ = lifecycle.refused()
        }
        #expect(lifecycle.phase == phase)
        return lifecycle
    }

    @Test func aClaimHandsItsWaitersOverOnceAndSetsTheDeadlineFromTheSendTime() {
        let answers = Answers()
        var lifecycle = Self.lifecycle(.claiming, answers: answers)
        let step1 = lifecycle.wait { answers.got.append($0) }
        #expect(step1)
        let read = RoomLifecycle.Restore(state: [1, 2, 3], token: String(repeating: "a", count: 32))
        let waiters = lifecycle.claimed(epoch: "42", sentNs: 5000 * Self.ms, restore: read)
        #expect(waiters?.count == 2)
        waiters?.forEach { $0(.claimed) }
        #expect(answers.got == [.claimed, .claimed])
        #expect(lifecycle.phase == .live)
        #expect(lifecycle.epoch == "42")
        // Lease 5 s minus the 1 s margin, counted from when the claim was sent, not answered.
        #expect(lifecycle.deadlineNs == 9000 * Self.ms)
        #expect(lifecycle.awaitsLoad)
        let step2 = lifecycle.load()
        #expect(step2 == read)
        let step3 = lifecycle.load()
        #expect(step3 == nil, "the claim's read is handed over once")
        #expect(!lifecycle.awaitsLoad)
        // A second answer to the same claim changes nothing.
        let step4 = lifecycle.claimed(epoch: "43", sentNs: 9000 * Self.ms, restore: .init())
        #expect(step4 == nil)
        #expect(lifecycle.epoch == "42")
        let step5 = lifecycle.wait { _ in }
        #expect(!step5, "a join cannot wait for a claim already answered")
    }

    @Test func aRefusedClaimEndsGoneWithItsWaiters() {
        var lifecycle = Self.lifecycle(.claiming)
        let step6 = lifecycle.wait { _ in }
        #expect(step6)
        let step7 = lifecycle.refused()
        #expect(step7?.count == 2)
        #expect(lifecycle.phase == .gone)
        #expect(lifecycle.epoch == nil)
        let step8 = lifecycle.refused()
        #expect(step8 == nil)
    }

    @Test func pastItsDeadlineALiveRoomIsFencedUntilAFreshRenewalIsConfirmed() {
        var lifecycle = Self.lifecycle(.live)
        let deadline = lifecycle.deadlineNs
        let step9 = lifecycle.checkDeadline(nowNs: deadline - 1)
        #expect(!step9)
        #expect(lifecycle.isActive)
        #expect(lifecycle.isFenced(nowNs: deadline), "counted as fenced as soon as the deadline passes")
        let step10 = lifecycle.checkDeadline(nowNs: deadline)
        #expect(step10)
        #expect(lifecycle.phase == .fenced)
        #expect(!lifecycle.isActive)
        let step11 = lifecycle.checkDeadline(nowNs: deadline + 1)
        #expect(!step11, "fenced once")
        // A confirmation of a renewal sent long ago (it waited in a stalled Redis) keeps the room held.
        let step12 = lifecycle.renewed(sentNs: deadline - Self.held, nowNs: deadline + 10 * Self.ms)
        #expect(step12)
        #expect(lifecycle.phase == .fenced)
        // One sent recently runs it again, with the deadline counted from that renewal's send time.
        let step13 = lifecycle.renewed(sentNs: deadline, nowNs: deadline + 10 * Self.ms)
        #expect(step13)
        #expect(lifecycle.phase == .live)
        #expect(lifecycle.deadlineNs == deadline + Self.held)
        // An older confirmation arriving late never moves the deadline back.
        let step14 = lifecycle.renewed(sentNs: deadline - 500 * Self.ms, nowNs: deadline + 20 * Self.ms)
        #expect(step14)
        #expect(lifecycle.deadlineNs == deadline + Self.held)
        #expect(lifecycle.epoch == "7", "a renewal never changes the epoch")
    }

    @Test func aLostRoomIsGoneFromLiveOrFenced() {
        for phase in [RoomLifecycle.Phase.live, .fenced] {
            var lifecycle = Self.lifecycle(phase)
            let step15 = lifecycle.lost()
            #expect(step15)
            #expect(lifecycle.phase == .gone)
            #expect(!lifecycle.holdsLease)
            let step16 = lifecycle.load()
            #expect(step16 == nil)
        }
    }

    @Test func aReleaseGoesThroughReleasingToGone() {
        for phase in [RoomLifecycle.Phase.live, .fenced] {
            var lifecycle = Self.lifecycle(phase)
            let step17 = lifecycle.release()
            #expect(step17)
            #expect(lifecycle.phase == .releasing)
            #expect(!lifecycle.holdsLease, "a room being released is neither renewed nor saved")
            #expect(!lifecycle.awaitsLoad, "a released claim is never loaded")
            let step18 = lifecycle.released()
            #expect(step18)
            #expect(lifecycle.phase == .gone)
        }
    }

    @Test func everyTransitionFromAnotherPhaseChangesNothing() {
        let phases: [RoomLifecycle.Phase] = [.claiming, .live, .fenced, .releasing, .gone]
        for phase in phases {
            var lifecycle = Self.lifecycle(phase)
            let before = (lifecycle.phase, lifecycle.epoch, lifecycle.deadlineNs)
            let far = lifecycle.deadlineNs + 60_000 * Self.ms
            if phase != .claiming {
                let step19 = lifecycle.wait { _ in }
                #expect(!step19)
                let step20 = lifecycle.claimed(epoch: "99", sentNs: far, restore: .init())
                #expect(step20 == nil)
                let step21 = lifecycle.refused()
                #expect(step21 == nil)
            }
            if phase != .live && phase != .fenced {
                let step22 = lifecycle.renewed(sentNs: far, nowNs: far)
                #expect(!step22)
                let step23 = lifecycle.lost()
                #expect(!step23)
                let step24 = lifecycle.release()
                #expect(!step24)
            }
            if phase != .live { let step25 = lifecycle.checkDeadline(nowNs: far); #expect(!step25) }
            if phase != .releasing { let step26 = lifecycle.released(); #expect(!step26) }
            #expect(lifecycle.phase == before.0, "\(phase)")
            #expect(lifecycle.epoch == before.1, "\(phase)")
            #expect(lifecycle.deadlineNs == before.2, "\(phase)")
        }
    }
}

