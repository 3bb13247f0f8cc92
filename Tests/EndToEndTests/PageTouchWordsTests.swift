import Foundation
import Testing

extension EndToEnd {
    /// The page's words follow the pointer (docs/ARCHITECTURE.md, "The page"): with a mouse the help says
    /// right click and wheel and the caption "Click"; on a touch screen (a coarse pointer) tap, long press
    /// and pinch, in the help and the scene's caption alike, and no keys.
    @Suite(.serialized, .timeLimit(.minutes(1))) struct PageTouchWordsTests {
        @Test(RequiredTool.chromium.trait)
        func aCoarsePointerGetsTouchWords() throws {
            let page = try PageSession(["--scene", "push"], width: 1280, height: 800)
            #expect(page.text("document.getElementById('status').dataset.pointer") == "fine")
            let fineHelp = page.text("document.getElementById('help').textContent")
            let fineCaption = page.text("document.getElementById('caption').textContent")
            #expect(fineHelp.contains("right click") && fineHelp.contains("wheel") && fineHelp.contains("? keys"))
            #expect(fineCaption.contains("Click"), "\(fineCaption)")
            try page.setViewport(width: 390, height: 844, mobile: true)
            _ = try page.browser.call("Page.reload", ["ignoreCache": true])
            #expect(Reliability.eventually(timeout: 20) { page.text("document.getElementById('status').dataset.state") == "open" })
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('status').dataset.pointer") == "coarse" })
            let help = page.text("document.getElementById('help').textContent")
            #expect(help.contains("tap") && help.contains("long press") && help.contains("pinch"), "\(help)")
            for mouseWord in ["right click", "wheel", "keys", "click"] { #expect(!help.contains(mouseWord), "\(mouseWord) in \(help)") }
            #expect(Reliability.eventually(timeout: 10) { page.text("document.getElementById('caption').textContent").contains("Tap") })
            let caption = page.text("document.getElementById('caption').textContent")
            #expect(!caption.lowercased().contains("click") && !caption.contains("at the cursor"), "\(caption)")
        }
    }
}
