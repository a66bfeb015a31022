import Testing

@testable import YAMLSupport
import TestTraits

/// A composition kept as bytes (the parsed-catalog cache) reads back as the same tree, and bytes
/// that are not a sound snapshot are refused, never trusted.
@Suite(.offPool) struct YAMLSnapshotTests {
    static let text = """
        service: shop
        base: &base { a: 1, b: [x, "y"] }
        copy: *base
        tagged: !!str 7
        block: |
          line one
          line two
        url: "http://{{host}}/items"
        list:
          - { name: "{{secret.TOKEN}}" }
          - plain
        dup: 1
        dup: 2
        empty:
        unicode: "grüße ✓"
        """

    private func snapshot(_ text: String) throws -> [UInt8] {
        try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{")).snapshot()
    }

    private func read(_ bytes: [UInt8]) -> YAMLComposer.Composition? {
        bytes.withUnsafeBytes { YAMLComposer.Composition(snapshot: $0) }
    }

    @Test func aSnapshotReadsBackAsTheSameComposition() throws {
        for text in [Self.text, "", "# only a comment\n", "- 1\n- [2, 3]\n", "just text"] {
            let composed = try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{"))
            let restored = try #require(read(composed.snapshot()), "\(text)")
            #expect(restored.outline == composed.outline)
        }
        let restored = try #require(read(try snapshot(Self.text)))
        #expect(restored.duplicates.map(\.line) == [13])
        #expect(restored.markedScalars.count == 2)
    }

    @Test func everyTruncationAndEveryDamagedByteIsRefused() throws {
        let bytes = try snapshot(Self.text)
        for length in 0..<bytes.count {
            #expect(read(Array(bytes[0..<length])) == nil, "truncated to \(length)")
        }
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x20
            #expect(read(damaged) == nil, "byte \(index) changed")
        }
        #expect(read(bytes + [0]) == nil)
    }

    /// Snapshots made from storage the composer would never make, with a valid checksum: only
    /// the reader's own checks stand between them and the decoder.
    @Test func treesTheComposerCannotMakeAreRefused() {
        func storage(_ records: [YAMLDocumentStorage.Record], children: [Int32], scalars: [String] = ["x"]) -> [UInt8] {
            let document = YAMLDocumentStorage(
                records: records, children: children, scalars: scalars.map { YAMLNode.Scalar(text: $0, style: .plain, tag: nil) })
            let root = YAMLNode(document, Int32(records.count - 1))
            return YAMLComposer.Composition(root: root, duplicates: [], markedScalars: []).snapshot()
        }
        func record(_ kind: YAMLDocumentStorage.Kind, first: Int32, count: Int32, line: Int32 = 1) -> YAMLDocumentStorage.Record {
            YAMLDocumentStorage.Record(kind: kind, isFlow: false, line: line, column: 1, lastLine: line, first: first, count: count)
        }
        let scalar = record(.scalar, first: 0, count: 0)
        // Sound, to show the builder below makes readable snapshots.
        #expect(read(storage([scalar, record(.sequence, first: 0, count: 2)], children: [0, 0])) != nil)
        // A collection that contains itself: a reader recursing into it would never end.
        #expect(read(storage([scalar, record(.sequence, first: 0, count: 1)], children: [1])) == nil)
        // Children out of bounds, a scalar out of bounds, a mapping with half a pair, a line 0.
        #expect(read(storage([scalar, record(.sequence, first: 0, count: 3)], children: [0, 0])) == nil)
        #expect(read(storage([record(.scalar, first: 1, count: 0)], children: [])) == nil)
        #expect(read(storage([scalar, record(.mapping, first: 0, count: 1)], children: [0])) == nil)
        #expect(read(storage([record(.scalar, first: 0, count: 0, line: 0)], children: [])) == nil)
        // Each level a list of the one before twice: 40 records, 2^40 values once expanded.
        var records = [scalar]
        var children: [Int32] = []
        for level in 1...40 {
            records.append(record(.sequence, first: Int32(children.count), count: 2))
            children += [Int32(level - 1), Int32(level - 1)]
        }
        #expect(read(storage(records, children: children)) == nil)
        // Nested deeper than the composer allows.
        records = [scalar]
        children = []
        for level in 1...(YAMLComposer.maximumDepth + 1) {
            records.append(record(.sequence, first: Int32(children.count), count: 1))
            children.append(Int32(level - 1))
        }
        #expect(read(storage(records, children: children)) == nil)
        records.removeLast()
        #expect(read(storage(records, children: Array(children.dropLast()))) != nil)
    }
}
