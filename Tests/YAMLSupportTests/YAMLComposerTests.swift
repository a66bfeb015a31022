import Testing

@testable import YAMLSupport
import TestTraits

/// The composed tree: what the decoder and the editor read of every node.
@Suite(.offPool) struct YAMLComposerTests {
    @Test func nodesKeepTheirContentPositionsAndStyle() throws {
        let root = try #require(try YAMLComposer.compose("""
            name: "quoted"
            list:
              - 1
              - { a: b }
            flow: [x, y]
            block: |
              line one
              line two
            after: end
            """).root)
        #expect(root.isMapping && !root.isFlow)
        #expect(root.entries.map(\.key) == ["name", "list", "flow", "block", "after"])
        let name = try #require(root.value("name")?.scalar)
        #expect(name.text == "quoted" && name.style == .quoted)
        guard case .sequence(let items) = try #require(root.value("list")).content else { Issue.record("not a list"); return }
        #expect(items.count == 2)
        #expect(items[0].scalar?.text == "1" && items[0].scalar?.style == .plain)
        #expect((items[0].line, items[0].column) == (3, 5))
        #expect(items[1].isFlow && items[1].value("a")?.scalar?.text == "b")
        let flow = try #require(root.value("flow"))
        #expect(flow.isFlow && (flow.line, flow.column, flow.lastLine) == (5, 7, 5))
        let block = try #require(root.value("block"))
        #expect(block.scalar?.text == "line one\nline two\n" && (block.line, block.lastLine) == (6, 8))
        #expect(try #require(root.value("list")).lastLine == 4)
        #expect(root.lastLine == 9)
        #expect(root.value("missing") == nil && root.entry("after")?.keyNode.line == 9)
    }

    @Test func anAliasSharesItsAnchorsContentButIsWhereItIsWritten() throws {
        let root = try #require(try YAMLComposer.compose("""
            base: &base { a: 1, b: [x] }
            copy: *base
            """).root)
        let base = try #require(root.value("base"))
        let copy = try #require(root.value("copy"))
        #expect((copy.line, copy.column) == (2, 7) && (base.line, base.column) == (1, 7))
        #expect(copy.isFlow && copy.entries.map(\.key) == ["a", "b"])
        guard case .mapping(let pairs) = copy.content else { Issue.record("not a mapping"); return }
        #expect(pairs.map { $0.key.scalar?.text ?? "" } == ["a", "b"])
        #expect(pairs[1].value.line == 1, "the shared content is where the anchor wrote it")
    }

    @Test func aDuplicateKeyIsLeftOutWithItsValueAndReportedWhereItIs() throws {
        let composition = try YAMLComposer.compose("""
            a: 1
            b: { c: 2 }
            a: 3
            d: 4
            """)
        let root = try #require(composition.root)
        #expect(root.entries.map { "\($0.key)=\($0.value.scalar?.text ?? "{}")" } == ["a=1", "b={}", "d=4"])
        #expect(composition.duplicates.map(\.description) == ["3:1: duplicate key 'a' (first defined at line 1): ids and keys must be unique"])
    }

    @Test func aLargeMappingFindsDuplicatesThroughItsKeyTable() throws {
        // Sixteen keys or more are looked up by name rather than searched.
        let lines = (0..<40).map { "k\($0): v" } + ["k7: again"]
        let composition = try YAMLComposer.compose(lines.joined(separator: "\n"))
        #expect(composition.root?.entries.count == 40)
        #expect(composition.duplicates.map(\.line) == [41])
    }
}

/// Aliases count as what they repeat, as the document is read.
@Suite(.offPool) struct YAMLExpansionTests {
    @Test func aRepeatedCollectionCountsItsWholeSize() throws {
        let item = String(repeating: "x", count: 1 << 20)
        // Each alias of `list` repeats 8 MiB: the seventh brings the text past 64 MiB.
        let text = "list: &list [" + Array(repeating: "\"\(item)\"", count: 8).joined(separator: ", ") + "]\ncopies: [" + Array(repeating: "*list", count: 20).joined(separator: ", ") + "]\n"
        #expect {
            _ = try YAMLComposer.compose(text)
        } throws: { error in
            guard let error = error as? YAMLSyntaxError else { return false }
            return error.line == 2 && error.column == 10 + 7 * 6 && error.message.hasPrefix("the alias *list makes the document larger than 64 MiB")
        }
        // Below the caps, aliases are read as before.
        let small = try YAMLComposer.compose("a: &a [1, 2]\nb: [*a, *a]\n")
        guard case .sequence(let copies)? = small.root?.value("b")?.content else {
            Issue.record("no sequence")
            return
        }
        #expect(copies.count == 2)
    }
}
