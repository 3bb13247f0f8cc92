import Testing
@testable import dynclient

@Suite struct CommandLineEditorTests {
    private func typed(_ text: String, into editor: inout CommandLineEditor) {
        for character in text { editor.type(character) }
    }

    @Test(.timeLimit(.minutes(3))) func tabCompletesCommandWords() {
        var editor = CommandLineEditor()
        typed("coll", into: &editor)
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "collision ")
        editor.complete(sceneNames: SceneCatalog.names)
        // After the command: its modes, all three offered, their common prefix is empty.
        #expect(editor.candidates == ["items", "boundaries", "everything"])
        typed("b", into: &editor)
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "collision boundaries ")
    }

    @Test(.timeLimit(.minutes(3))) func severalMatchesCompleteToTheirCommonPrefixAndAreListed() {
        var editor = CommandLineEditor()
        typed("s", into: &editor)
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "s")
        #expect(editor.candidates == ["scene", "spawn", "set", "snap", "step", "subscribe"])
        typed("c", into: &editor)
        #expect(editor.candidates.isEmpty)
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "scene ")
    }

    @Test(.timeLimit(.minutes(3))) func sceneNamesAndPropertiesComplete() {
        var editor = CommandLineEditor(text: "scene el")
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "scene elasticity ")
        editor = CommandLineEditor(text: "set 3 fr")
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "set 3 friction ")
        // A value goes after a property: nothing to complete there.
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "set 3 friction ")
        editor = CommandLineEditor(text: "field vor")
        editor.complete(sceneNames: SceneCatalog.names)
        #expect(editor.text == "field vortex ")
    }

    @Test(.timeLimit(.minutes(3))) func historyWalksBackAndForthAndKeepsTheDraft() {
        var editor = CommandLineEditor()
        for line in ["scene snap", "collision items", "collision items", "  "] {
            editor.reset(text: line)
            _ = editor.submit()
        }
        // Blank lines and repeats are not kept.
        #expect(editor.history == ["scene snap", "collision items"])
        typed("gra", into: &editor)
        editor.historyUp()
        #expect(editor.text == "collision items")
        editor.historyUp()
        #expect(editor.text == "scene snap")
        editor.historyUp()
        #expect(editor.text == "scene snap")
        editor.historyDown()
        #expect(editor.text == "collision items")
        editor.historyDown()
        #expect(editor.text == "gra")
    }

    @Test(.timeLimit(.minutes(3))) func backspaceAndSubmit() {
        var editor = CommandLineEditor()
        typed("pinx", into: &editor)
        editor.backspace()
        editor.backspace()
        typed("ng", into: &editor)
        #expect(editor.submit() == "ping")
        #expect(editor.text.isEmpty)
        editor.backspace()
        #expect(editor.text.isEmpty)
    }
}
