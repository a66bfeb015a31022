import FoundationEssentials
import TestSupport
import Testing

@testable import YAMLSupport
import TestTraits

/// The subset parser against libyaml: whenever it accepts a text, the tree (every node's
/// content, style, tag and position), the duplicate keys and the marked scalars must be what
/// libyaml's events make.
@Suite(.offPool) struct YAMLSubsetParserTests {
    enum Outcome: Equatable {
        /// The subset parser read it, as libyaml does.
        case accepted
        /// Outside the subset (libyaml reads it, or reports the error).
        case declined
    }

    /// Composes `text` both ways; records an issue when the subset parser accepts a text and
    /// libyaml fails or makes another tree.
    @discardableResult
    static func compare(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Outcome {
        var copy = text
        let subset = copy.withUTF8 { YAMLSubsetParser.compose($0, marker: UInt8(ascii: "{")) }
        guard let subset else { return .declined }
        do {
            let reference = try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{"), parser: .libyaml)
            let expected = reference.outline
            let actual = subset.outline
            if expected != actual {
                Issue.record("the subset parser's tree differs from libyaml's for:\n\(text)\n--- libyaml\n\(expected)\n--- subset\n\(actual)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("the subset parser accepted a text libyaml rejects (\(error)):\n\(text)", sourceLocation: sourceLocation)
        }
        return .accepted
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theBundledCatalogsAreReadByTheSubsetParserAsLibYAMLReadsThem() throws {
        for name in ["environments/httpbin.yaml", "environments/petstore.yaml", "Tests/ExportedClientTests/Catalog/shop.yaml"] {
            let text = try String(contentsOf: YAMLSubsetParserTests.repository.appendingPathComponent(name), encoding: .utf8)
            #expect(YAMLSubsetParserTests.compare(text) == .accepted, "\(name) left the subset")
        }
    }

    @Test func realOpenAPIAndInsomniaDocumentsAreReadAlikeWhenInTheSubset() throws {
        let folder = YAMLSubsetParserTests.repository.appendingPathComponent("Tests/InteropTests/Resources")
        let names = [
            "petstore-openapi-3.0.yaml", "real/insomnia/insomnia4.yaml", "real/openapi/uspto.yaml", "real/openapi/callback-example.yaml",
            "real/openapi/petstore-expanded.yaml", "real/openapi/api-with-examples.yaml", "real/openapi/link-example.yaml",
            "real/openapi/webhook-example.yaml",
        ]
        var accepted = 0
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if YAMLSubsetParserTests.compare(text) == .accepted { accepted += 1 }
        }
        // Six are in the subset; uspto.yaml and api-with-examples.yaml write JSON examples as
        // flow collections over several lines, which libyaml reads.
        #expect(accepted >= 6)
    }

    @Test func aGeneratedCatalogFileIsInTheSubset() {
        var text = """
            service: s
            title: Generated
            variables: { tenant: t1, version: "2" }
            environments:
              local:
                type: development
                baseURL: http://127.0.0.1:4010/service
                headers: { Accept: application/json, X-Tenant: "{{tenant}}" }
                fixtures: delayed(0.1)
                tls: { pins: [sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=] }
            errors:
              - { status: 400, error: badRequest, message: "$.errors[*].message" }
              - { status: 2xx, when: $.error, error: applicationError, message: $.error.message }
            endpoints:

            """
        for number in 1..<50 {
            text += """
                  item\(number):
                    method: GET
                    path: /v{{version}}/items/{{id}}/part\(number)
                    query: { page: "1", filter: "{{filter}}" }
                    body: { name: item \(number), tags: [a, b], count: \(number) }
                    stub:
                      status: 200
                      body: { id: \(number), ok: true }

                """
        }
        #expect(YAMLSubsetParserTests.compare(text) == .accepted)
    }

    /// Texts in the subset, each an edge of it.
    static let inSubset: [String] = [
        "", "# only a comment\n", "a: 1", "a: 1\n", "a:\n", "a:\nb: 2", "a: # c\nb:", "a:    \n\n  \nb: x  ",
        "a: b c  d   # comment\n# again\n   # indented\nc: d#e", "a:b: c", "a : b", "\"a\": 'b'", "'a''s': \"q\\\"uote\\n\\t\\\\ \\/\"",
        "url: http://x:8080/a?b=c#frag", "neg: -1\ndash: -x\ndot: -.5", "a: [x, y, 'z', \"w\"]", "a: []\nb: {}\nc: [ ]\nd: { }",
        "a: {x: 1, y: [1, 2, {z: w}], 'q': \"r\"}", "a: [http://x:1/y, a:b]", "a: {u: http://x}",
        "list:\n  - 1\n  - two\n  - 'three'\n  - [4]\n  - {five: 5}", "list:\n- a\n- b\nnext: c", "- a\n- b\n", "-   spaced",
        "- a: 1\n  b: 2\n- c: 3\n  d:\n    - e\n    - f: g", "- \n  a: 1", "-\n  - x\n  - y", "k:\n  -\n    a: b",
        "a:\n  b:\n    c:\n      d: e\n  f: g\nh: i", "  a: 1\n  b: 2", "é: ü\nclé: { ñ: 'ø', x: é }  # ç\nz: \"日本\"",
        "text: |\n  line one\n  line two\nafter: x", "text: |-\n  stripped\n\n\nnext: y", "text: |+\n  kept\n\n\nnext: y",
        "text: |\n\n  after blank\n    deeper\n  back\n\n# comment\nz: 1", "text: | # comment\n  a\n", "text: |\n  a", "text: |\n  a\n\n",
        "- |\n  in a sequence\n- b", "- a: |\n    compact\n  b: c", "k:\n- |\n  x\n", "text: |\n   # not a comment\n  ", "a: |\nb: 1",
        "text: |\n\n\n", "text: |\n  \n   \n  x", "a: 1\na: 2\nb: { c: 1, c: 2 }", "a: {x}", "a: {x:y}", "a: { x, y: 1, z }", "f: >\n  folded\n  text\n\n  para\n   kept\n  end", "f: >-\n a\n b", "a:\n  b: |\n  c: d", "- a:\n  - x\n  b: 1", "\"a\"  : b", "a: [a#b, -a, a?b, {c: [d]}]", "a: |\n    \n  x", "marked: \"{{x}}\"\nkeys: { \"{k}\": v }\n- {a}: b",
        "a: '{{x}}'\nb: [\"{y}\", z]", "a: 'it''s'", "a: \"\\0\\a\\b\\v\\f\\r\\e\\ \"", "deep: [[[[[[[[x]]]]]]]]",
        "a: [a b, c  d ]", "a: {b: c d , e: f}", "a: 'x' # c", "a: [x] # c", "a: -", "a: x\n...", "---\na: 1", "a: b\n  c",
    ]

    @Test func edgesOfTheSubsetAreReadAsLibYAMLReadsThem() {
        for text in YAMLSubsetParserTests.inSubset { YAMLSubsetParserTests.compare(text) }
    }

    @Test func mostEdgesAreAccepted() {
        let accepted = YAMLSubsetParserTests.inSubset.filter { YAMLSubsetParserTests.compare($0) == .accepted }
        #expect(accepted.count >= YAMLSubsetParserTests.inSubset.count - 12, "declined: \(YAMLSubsetParserTests.inSubset.filter { YAMLSubsetParserTests.compare($0) == .declined })")
    }

    /// Texts outside the subset: libyaml reads them (or reports their error) and the composition
    /// is libyaml's.
    @Test(arguments: [
        "a: &x 1\nb: *x", "a: !!str 1", "a: plain\n  continued", "a: [x,\n  y]", "a: \"two\n  lines\"",
        "a:\tb", "a: 1\r\nb: 2\r\n", "%YAML 1.1\n---\na: 1", "? complex\n: key", "a: \"\\u00e9\"", "a: |2\n   x", "a: 1\n---\nb: 2",
        "plain scalar", "[1, 2]", "a: [x, ]", "a: [x: y]", "a: {x: }", "- - a", "a: b: c", "a: 'x' y", "\u{FEFF}a: 1",
        "a: \u{85}", "a: @x", "a:\n  - x\n   y", String(repeating: "[", count: 200),
    ])
    func textsOutsideTheSubsetGoToLibYAML(text: String) throws {
        #expect(YAMLSubsetParserTests.compare(text) == .declined)
        let automatic = Result { () throws(YAMLSyntaxError) in try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{")) }
        let libyaml = Result { () throws(YAMLSyntaxError) in try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{"), parser: .libyaml) }
        switch (automatic, libyaml) {
        case (.success(let first), .success(let second)): #expect(first.outline == second.outline)
        case (.failure(let first), .failure(let second)): #expect(first == second)
        default: Issue.record("one parser failed and the other did not: \(automatic) \(libyaml)")
        }
    }

    /// Random documents shaped like catalogs (nested mappings and sequences, compact mappings,
    /// block scalars, flow collections, comments), half of them then damaged by a few random
    /// edits: whatever the subset parser accepts, libyaml reads the same.
    @Test func randomTextsAreReadAlikeOrDeclined() async {
        var generator = SeededGenerator(state: 0x5EED)
        var accepted = 0
        let rounds = Int(ProcessInfo.processInfo.environment["YAML_SUBSET_ROUNDS"] ?? "") ?? 8000
        for round in 0..<rounds {
            // Yields now and then, as FuzzTests does, not to starve the timing tests beside it.
            if round.isMultiple(of: 500) { await Task.yield() }
            var text = RandomYAML.document(using: &generator)
            if Bool.random(using: &generator) { YAMLSubsetParserTests.damage(&text, using: &generator) }
            if YAMLSubsetParserTests.compare(text) == .accepted { accepted += 1 }
        }
        // The comparison means something only if a good share is accepted.
        #expect(accepted > rounds / 6, "only \(accepted) of \(rounds) accepted")
    }

    /// One to three random edits: a character inserted, one removed, or a line repeated.
    static func damage(_ text: inout String, using generator: inout SeededGenerator) {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            guard !bytes.isEmpty else { break }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes.insert(Array(" -:#'\"{}[],|>\n\\?&*!".utf8).randomElement(using: &generator)!, at: index)
            case 1: bytes.remove(at: index)
            default:
                let start = bytes[..<index].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                bytes.insert(contentsOf: bytes[start..<end] + [UInt8(ascii: "\n")], at: start)
            }
        }
        text = String(decoding: bytes, as: UTF8.self)
    }
}
