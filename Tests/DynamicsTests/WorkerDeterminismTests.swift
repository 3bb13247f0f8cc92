import Testing
@testable import Dynamics

/// A world stepped on its workers gives the same bits for any number of them (SPEC Part O; docs/ENGINE.md,
/// "Parallel step"), as Box2D v3's test_determinism checks for its own workers: the same scene stepped with 1, 2,
/// 3, 4 and 8 workers, and with none, has the same state hash after every step.
@Suite(.timeLimit(.minutes(2)))
struct WorkerDeterminismTests {
    /// A pile large enough to step on the workers (`Tuning.parallelMinBodies`): rectangles, circles and
    /// polygons dropped in a box, some elastic (restitution passes), a rope, a pin, a drag and a continuous
    /// push, and a few fast items (continuous collision).
    static func scene(workers: StepWorkers?) throws -> DynamicAnimator {
        let a = DynamicAnimator(width: 1_600, height: 1_000)
        a.workers = workers
        _ = a.add(GravityBehavior())
        _ = a.add(CollisionBehavior())
        var g = SeededGenerator(seed: 30)
        var ids: [ItemID] = []
        for k in 0..<360 {
            let x = 60 + Double(k % 30) * 50 + Double.random(in: -4...4, using: &g)
            let y = 980 - Double(k / 30) * 45
            let size = Double.random(in: 16...34, using: &g).rounded()
            let shape: ItemShape = k % 3 == 0 ? .ellipse : .rect
            ids.append(try a.addItem(shape: shape, width: size, height: shape == .ellipse ? size : size * 0.8,
                                     center: Vec2(x, y), angle: Double.random(in: -0.5...0.5, using: &g),
                                     properties: .init(elasticity: k % 7 == 0 ? 0.8 : 0.1,
                                                       friction: Double.random(in: 0.1...0.9, using: &g))))
        }
        for k in 0..<6 {
            ids.append(try a.addItem(shape: .ellipse, width: 14, height: 14, center: Vec2(200 + Double(k) * 200, 60),
                                     velocity: Vec2(Double(k % 2 == 0 ? 1 : -1) * 3_000, 2_500),
                                     properties: .init(elasticity: 0.6)))
        }
        var rope = AttachmentBehavior.anchored(ids[5], offset: .zero, to: Vec2(300, 300))
        rope.kind = .limit
        _ = try a.add(rope)
        _ = try a.add(PinAttachmentBehavior(item: ids[40], otherItem: ids[41], point: a.center(ids[40])))
        _ = try a.add(DragBehavior(item: ids[100], target: Vec2(900, 400)))
        var push = PushBehavior(items: [ids[200]], mode: .continuous)
        push.angle = -1.2
        push.magnitude = 40
        _ = try a.add(push)
        return a
    }

    @Test func theSameSceneGivesTheSameHashForAnyNumberOfWorkers() throws {
        let steps = 45
        let reference = try Self.scene(workers: nil)
        var expected: [UInt64] = []
        for _ in 0..<steps {
            reference.step()
            expected.append(reference.stateHash())
        }
        #expect(reference.world.awakeCount >= Tuning.parallelMinBodies, "the scene must be large enough to split")
        for n in [1, 2, 3, 4, 8] {
            let workers = StepWorkers(threads: n)
            let a = try Self.scene(workers: workers)
            var firstDifference: Int?
            for k in 0..<steps {
                a.step()
                if firstDifference == nil && a.stateHash() != expected[k] { firstDifference = k }
            }
            #expect(firstDifference == nil, "\(n) workers: first differs after step \(firstDifference ?? -1)")
            // The stages really were split: with more than one worker, blocks ran in parallel.
            #expect(n == 1 ? workers.parallelStages == 0 : workers.parallelStages > 500,
                    "\(n) workers ran \(workers.parallelStages) parallel stages")
        }
    }

    /// Handing a world its workers between steps (or taking them away) changes nothing.
    @Test func workersMayChangeBetweenSteps() throws {
        let reference = try Self.scene(workers: nil)
        let a = try Self.scene(workers: StepWorkers(threads: 2))
        for k in 0..<40 {
            if k == 10 { a.workers = StepWorkers(threads: 3) }
            if k == 20 { a.workers = nil }
            if k == 30 { a.workers = StepWorkers(threads: 4) }
            reference.step()
            a.step()
        }
        #expect(a.stateHash() == reference.stateHash())
    }

    /// A small world stays on the stepping thread: its stages never reach the workers.
    @Test func aSmallWorldStepsOnOneThread() throws {
        let workers = StepWorkers(threads: 4)
        let a = makeWorld()
        a.workers = workers
        for k in 0..<100 {
            _ = try a.addItem(width: 20, height: 20, center: Vec2(40 + Double(k % 20) * 30, 100 + Double(k / 20) * 30))
        }
        a.run(seconds: 1)
        #expect(workers.parallelStages == 0)
    }

    /// The worker set runs every block exactly once, for any number of blocks and workers.
    @Test func everyBlockRunsExactlyOnce() {
        for n in [1, 2, 3, 8] {
            let workers = StepWorkers(threads: n)
            for blocks in [0, 1, 2, 7, 64, 1_000] {
                let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(blocks, 1))
                counts.initialize(repeating: 0)
                defer { counts.deallocate() }
                for _ in 0..<20 { workers.parallel(blocks: blocks) { k in counts[k] += 1 } }
                #expect(counts.prefix(blocks).allSatisfy { $0 == 20 }, "\(n) workers, \(blocks) blocks")
            }
        }
    }
}
