import Testing
@testable import Dynamics

/// The solver streams the constraint chunks and gathers the body states many times per step
/// (docs/ARCHITECTURE.md, "The physics step"): their widths are the cost of every pass, so a field added to
/// them should be a deliberate choice.
@Test(.timeLimit(.minutes(3))) func solverBodyStateIs32Bytes() {
    #expect(MemoryLayout<SolverBody>.stride == 32)
}

@Test(.timeLimit(.minutes(3))) func contactChunkAndContactKeepTheirDocumentedWidths() {
    // 42 lane fields (12 per point) of 4 Floats, 2 of them Int32 slot lanes, 2 more Int32 lanes (block, id).
    #expect(MemoryLayout<ContactChunk>.stride == 42 * MemoryLayout<FloatW>.stride)
    // 200: the persistent contact holds its two proxy keys (Int32) instead of two Int pair keys; + 16 for each
    // point's current separation beside its base one, + 48 for the poses its manifold was computed at (contact
    // recycling, Engine/ContactRecycling.swift).
    #expect(MemoryLayout<Contact>.stride == 264)
}
