import CatalogTestSupport
import FoundationEssentials
import JSONSupport
import TestSupport
import Testing

@testable import Catalog
@testable import YAMLSupport
import TestTraits

/// Bodies written straight from the nodes are the text the JSON value would print, with the
/// same errors.
@Suite(.offPool) struct CompactJSONTests {
    static func bothWays(_ yaml: String) throws -> (direct: String?, viaValue: String?, directErrors: [String], valueErrors: [String]) {
        let root = try #require(try YAMLComposer.compose(yaml).root)
        let direct = CatalogFileDecoder(file: "t.yaml", fileName: "t.yaml", fileSystem: InMemoryFileSystem(files: [:]))
        let viaValue = CatalogFileDecoder(file: "t.yaml", fileName: "t.yaml", fileSystem: InMemoryFileSystem(files: [:]))
        let text = direct.compactJSON(root, "the body")
        let value = viaValue.json(root, "the body")?.compactText
        return (text, value, direct.diagnostics.map(\.description), viaValue.diagnostics.map(\.description))
    }

    @Test(arguments: [
        "a: 1", "[1, 2.5, -3, 1e3, 0x1F, +7, .5, 1., 0o17, 1_000]", "{ t: true, f: false, n: null, tilde: ~, empty: }",
        "text: \"quote \\\" backslash \\\\ tab \\t nl \\n bell \\a\"", "é: \"ü 日本\"", "[]", "{}", "- []\n- {}\n- [[], {}]",
        "a: { b: [ { c: d } ] }", "base: &b { x: 1, y: 2 }\nuse: { <<: *b, y: 3 }", "m: { <<: [{ a: 1 }, { b: 2 }] }",
        "two: { <<: { a: 1 }, <<: { a: 2 } }", "bad: .inf", "nan: .nan", "key: {{x}}", "? [a]\n: b", "s: '{{x}}'", "'7': seven",
        "x: !!str 7", "y: !!int \"7\"", "z: 2001-12-14", "big: 123456789012345678901234567890",
    ])
    func theDirectWriterMatchesTheJSONValue(yaml: String) throws {
        let result = try CompactJSONTests.bothWays(yaml)
        #expect(result.direct == result.viaValue)
        #expect(result.directErrors == result.valueErrors)
    }

    @Test func randomDocumentsMatch() async throws {
        var generator = SeededGenerator(state: 0xB0D1)
        for round in 0..<2000 {
            if round.isMultiple(of: 500) { await Task.yield() }
            let text = RandomYAML.document(using: &generator)
            guard let root = try? YAMLComposer.compose(text).root else { continue }
            let direct = CatalogFileDecoder(file: "t.yaml", fileName: "t.yaml", fileSystem: InMemoryFileSystem(files: [:]))
            let viaValue = CatalogFileDecoder(file: "t.yaml", fileName: "t.yaml", fileSystem: InMemoryFileSystem(files: [:]))
            #expect(direct.compactJSON(root, "b") == viaValue.json(root, "b")?.compactText, "\(text)")
            #expect(direct.diagnostics.map(\.description) == viaValue.diagnostics.map(\.description))
        }
    }
}
