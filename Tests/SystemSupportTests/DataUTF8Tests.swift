import FoundationEssentials
import SystemSupport
import Testing
import TestTraits

/// `Data(utf8:)` holds exactly the bytes `Data(text.utf8)` does.
@Suite(.offPool) struct DataUTF8Tests {
    @Test(arguments: ["", "a", "plain ASCII longer than fifteen bytes", "é 😀 \u{0}\n", String(repeating: "ü", count: 10_000)])
    func holdsTheUTF8Bytes(text: String) {
        #expect(Data(utf8: text) == Data(text.utf8))
        #expect(Data(utf8: text).count == text.utf8.count)
    }

    @Test func readsASliceAsItsOwnText() {
        let whole = "prefix-middle-suffix"
        let middle = String(whole.dropFirst(7).dropLast(7))
        #expect(Data(utf8: middle) == Data("middle".utf8))
    }
}
