import Testing
@testable import Dynamics

/// The solver streams the constraint array many times per step (docs/ARCHITECTURE.md, "The physics step"):
/// its width is the cost of every pass, so a field added to it should be a deliberate choice.
@Test func contactConstraintAndContactKeepTheirDocumentedWidths() {
    #expect(MemoryLayout<ConstraintPoint>.stride == 80)
    #expect(MemoryLayout<ContactConstraint>.stride == 224)
    // 200: the persistent contact holds its two proxy keys (Int32) instead of two Int pair keys.
    #expect(MemoryLayout<Contact>.stride == 200)
}
