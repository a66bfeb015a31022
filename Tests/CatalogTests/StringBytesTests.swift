import Testing

@testable import Catalog
import TestTraits

/// The byte search the decoder runs on every header, query item and body string.
@Suite(.offPool) struct StringBytesTests {
    @Test func findsANeedleWhereverItIsAndOnlyWhole() {
        #expect("Bearer {{secret.TOKEN}}".containsBytes("TOKEN"))
        #expect("TOKEN".containsBytes("TOKEN"))
        #expect("xTOKEN".containsBytes("TOKEN"))
        #expect("TOKENx".containsBytes("TOKEN"))
        #expect(!"TOKE".containsBytes("TOKEN"))
        #expect(!"TOKExN".containsBytes("TOKEN"))
        #expect("TTOTOKEN".containsBytes("TOKEN"), "a partial match before the match")
        #expect("anything".containsBytes(""))
        #expect(!"".containsBytes("a"))
        #expect("naïve café".containsBytes("é"))
        #expect(!"naïve".containsBytes("é"))
    }

    @Test func searchesSubstringsAndBridgedTextToo() {
        let text = "ab {{c}} de"
        #expect(text.dropFirst(3).containsBytes("{{c"))
        #expect(!text.dropFirst(4).containsBytes("{{c"))
        #expect(text.dropFirst(3).hasPlaceholderOpening)
        #expect(!text.dropLast(8).hasPlaceholderOpening)
    }
}
