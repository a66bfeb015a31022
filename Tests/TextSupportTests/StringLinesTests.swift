import Testing
import TextSupport
import TestTraits

@Suite(.offPool) struct StringLinesTests {
    @Test func linesAreCountedAndTheFirstIsFoundWithoutSplitting() {
        #expect("".lineCount == 1)
        #expect("one".lineCount == 1 && "one".firstLine == "one")
        #expect("a\nb\n".lineCount == 3)
        #expect("{\n  \"a\": 1\n}".firstLine == "{")
        #expect("é\ná".lineCount == 2)
    }
}
