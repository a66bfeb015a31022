/// A composition as bytes and back: what a cache keeps of a parsed file so that reading it again
/// needs no YAML parsing. The bytes are read as untrusted (they live in a user's folder): every
/// count is checked against what is left before memory is spent, every index against what it
/// points into, and the tree must be one the composer could have made (children before their
/// parent, so no cycle; the composer's depth and expansion limits), else nil.
extension YAMLComposer.Composition {
    /// Bumped whenever the layout below changes: older snapshots are then refused.
    package static let snapshotFormat: UInt32 = 1

    /// The composition as bytes (`init?(snapshot:)` reads them back). Scalar texts are kept once
    /// each: a catalog repeats a few keys thousands of times.
    package func snapshot() -> [UInt8] {
        var writer = SnapshotWriter()
        writer.put(Self.snapshotMagic)
        writer.put(Self.snapshotFormat)
        guard let root else {
            writer.put(UInt32(0))  // no root
            writer.putDuplicates(duplicates)
            return writer.finished()
        }
        let document = root.document
        writer.bytes.reserveCapacity(document.records.count * 21 + document.children.count * 4 + document.scalars.count * 12)
        writer.put(UInt32(1))
        writer.put(UInt32(bitPattern: root.index))
        // Texts and tags, each distinct one once.
        var texts: [String] = []
        var textIndex: [String: UInt32] = [:]
        func intern(_ text: String) -> UInt32 {
            if let known = textIndex[text] { return known }
            let index = UInt32(texts.count)
            texts.append(text)
            textIndex[text] = index
            return index
        }
        var scalarFields: [(text: UInt32, tag: UInt32, style: UInt8)] = []
        scalarFields.reserveCapacity(document.scalars.count)
        for scalar in document.scalars {
            // Tag 0 is none; a tag's index is shifted by one.
            let tag = scalar.tag.map { intern($0) + 1 } ?? 0
            scalarFields.append((intern(scalar.text), tag, scalar.style == .plain ? 0 : 1))
        }
        writer.put(UInt32(texts.count))
        for text in texts { writer.put(text) }
        writer.put(UInt32(scalarFields.count))
        for field in scalarFields {
            writer.put(field.text)
            writer.put(field.tag)
            writer.bytes.append(field.style)
        }
        writer.put(UInt32(document.records.count))
        for record in document.records {
            writer.bytes.append(record.kind.rawValue | (record.isFlow ? 0x80 : 0))
            writer.put(UInt32(bitPattern: record.line))
            writer.put(UInt32(bitPattern: record.column))
            writer.put(UInt32(bitPattern: record.lastLine))
            writer.put(UInt32(bitPattern: record.first))
            writer.put(UInt32(bitPattern: record.count))
        }
        writer.put(UInt32(document.children.count))
        for child in document.children { writer.put(UInt32(bitPattern: child)) }
        writer.putDuplicates(duplicates)
        writer.put(UInt32(markedScalars.count))
        for marked in markedScalars { writer.put(UInt32(bitPattern: marked.index)) }
        return writer.finished()
    }

    /// The composition `snapshot()` wrote, or nil when the bytes are not a sound snapshot of this
    /// format (truncated, damaged, another version, or made by hand).
    package init?(snapshot bytes: UnsafeRawBufferPointer) {
        var reader = SnapshotReader(bytes)
        guard let parsed = reader.composition(), reader.isAtEnd else { return nil }
        self = parsed
    }

    static let snapshotMagic: UInt32 = 0x5941_4E53  // "SNAY"
}

/// Appends little-endian fields.
private struct SnapshotWriter {
    var bytes: [UInt8] = []

    mutating func put(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func put(_ text: String) {
        put(UInt32(truncatingIfNeeded: text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func putDuplicates(_ duplicates: [YAMLSyntaxError]) {
        put(UInt32(duplicates.count))
        for duplicate in duplicates {
            put(UInt32(truncatingIfNeeded: duplicate.line))
            put(UInt32(truncatingIfNeeded: duplicate.column))
            put(duplicate.message)
        }
    }

    /// The bytes with a checksum of them at the end, which catches a damaged file that would
    /// still be well formed (a flipped byte in a text).
    func finished() -> [UInt8] {
        var all = bytes
        withUnsafeBytes(of: SnapshotChecksum.of(bytes).littleEndian) { all.append(contentsOf: $0) }
        return all
    }
}

/// A fast, non-cryptographic checksum over 8-byte words (damage, not forgery: the reader checks
/// every structure on its own).
enum SnapshotChecksum {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x85EB_CA77_C2B2_AE63)
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0 = (lanes.0 ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
            lanes.1 = (lanes.1 ^ bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime
            lanes.2 = (lanes.2 ^ bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime
            lanes.3 = (lanes.3 ^ bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime
            offset += 32
        }
        var hash = lanes.0 ^ (lanes.1 >> 1 | lanes.1 << 63) ^ (lanes.2 >> 2 | lanes.2 << 62) ^ (lanes.3 >> 3 | lanes.3 << 61)
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        return (hash ^ UInt64(bytes.count)) &* prime
    }

    static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }
}

/// Reads what `SnapshotWriter` wrote, refusing anything out of bounds.
private struct SnapshotReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private let end: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        // The checksum's 8 bytes are not part of what is read.
        end = bytes.count >= 8 ? bytes.count - 8 : 0
    }

    var isAtEnd: Bool { offset == end }

    private var remaining: Int { end - offset }

    private mutating func uint32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        let value = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        offset += 4
        return value
    }

    private mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }

    private mutating func byte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A count of items of at least `size` bytes each, only if that many bytes are left.
    private mutating func count(ofItemsOfSize size: Int) -> Int? {
        guard let count = uint32().map(Int.init), count <= remaining / size else { return nil }
        return count
    }

    private mutating func text() -> String? {
        guard let length = count(ofItemsOfSize: 1) else { return nil }
        let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        offset += length
        return text
    }

    private mutating func duplicates() -> [YAMLSyntaxError]? {
        guard let count = count(ofItemsOfSize: 12) else { return nil }
        var duplicates: [YAMLSyntaxError] = []
        for _ in 0..<count {
            guard let line = int32(), let column = int32(), line > 0, column > 0, let message = text() else { return nil }
            duplicates.append(YAMLSyntaxError(line: Int(line), column: Int(column), message: message))
        }
        return duplicates
    }

    mutating func composition() -> YAMLComposer.Composition? {
        guard bytes.count >= 8,
            SnapshotChecksum.of(UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
                == UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)),
            uint32() == YAMLComposer.Composition.snapshotMagic, uint32() == YAMLComposer.Composition.snapshotFormat,
            let hasDocument = uint32()
        else { return nil }
        if hasDocument == 0 {
            guard let duplicates = duplicates() else { return nil }
            return YAMLComposer.Composition(root: nil, duplicates: duplicates, markedScalars: [])
        }
        guard hasDocument == 1, let rootIndex = uint32().map(Int.init), let textCount = count(ofItemsOfSize: 4) else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(textCount)
        for _ in 0..<textCount {
            guard let text = text() else { return nil }
            texts.append(text)
        }
        guard let scalarCount = count(ofItemsOfSize: 9) else { return nil }
        var scalars: [YAMLNode.Scalar] = []
        scalars.reserveCapacity(scalarCount)
        for _ in 0..<scalarCount {
            guard let text = uint32().map(Int.init), let tag = uint32().map(Int.init), let style = byte(),
                text < texts.count, tag <= texts.count, style <= 1
            else { return nil }
            scalars.append(YAMLNode.Scalar(text: texts[text], style: style == 0 ? .plain : .quoted, tag: tag == 0 ? nil : texts[tag - 1]))
        }
        guard let recordCount = count(ofItemsOfSize: 21) else { return nil }
        var records: [YAMLDocumentStorage.Record] = []
        records.reserveCapacity(recordCount)
        for _ in 0..<recordCount {
            guard let flags = byte(), let kind = YAMLDocumentStorage.Kind(rawValue: flags & 0x7F), let line = int32(), let column = int32(),
                let lastLine = int32(), let first = int32(), let count = int32()
            else { return nil }
            records.append(YAMLDocumentStorage.Record(
                kind: kind, isFlow: flags & 0x80 != 0, line: line, column: column, lastLine: lastLine, first: first, count: count))
        }
        guard let childCount = count(ofItemsOfSize: 4) else { return nil }
        var children: [Int32] = []
        children.reserveCapacity(childCount)
        for _ in 0..<childCount {
            guard let child = int32() else { return nil }
            children.append(child)
        }
        guard rootIndex < records.count, Self.isSound(records: records, children: children, scalars: scalars),
            let duplicates = duplicates(), let markedCount = count(ofItemsOfSize: 4)
        else { return nil }
        var marked: [Int32] = []
        for _ in 0..<markedCount {
            guard let index = int32(), index >= 0, Int(index) < records.count, records[Int(index)].kind == .scalar else { return nil }
            marked.append(index)
        }
        let document = YAMLDocumentStorage(records: records, children: children, scalars: scalars)
        return YAMLComposer.Composition(
            root: YAMLNode(document, Int32(rootIndex)), duplicates: duplicates, markedScalars: marked.map { YAMLNode(document, $0) })
    }

    /// Whether the records make a tree the composer could have made: every index in bounds,
    /// every child before its parent (so readers that recurse cannot loop), positions from 1,
    /// and within the composer's nesting depth and expanded size (aliases share children, so a
    /// few records can stand for an exponential tree).
    static func isSound(records: [YAMLDocumentStorage.Record], children: [Int32], scalars: [YAMLNode.Scalar]) -> Bool {
        var depth = [Int32](repeating: 0, count: records.count)
        var expandedNodes = [Int](repeating: 0, count: records.count)
        var expandedBytes = [Int](repeating: 0, count: records.count)
        for (index, record) in records.enumerated() {
            guard record.line > 0, record.column > 0, record.lastLine >= record.line else { return false }
            switch record.kind {
            case .scalar:
                guard record.first >= 0, Int(record.first) < scalars.count, record.count == 0 else { return false }
                expandedNodes[index] = 1
                expandedBytes[index] = scalars[Int(record.first)].text.utf8.count
            case .mapping, .sequence:
                let first = Int(record.first)
                let count = Int(record.count)
                guard first >= 0, count >= 0, first <= children.count - count, record.kind == .sequence || count.isMultiple(of: 2) else {
                    return false
                }
                var deepest: Int32 = 0
                var nodes = 1
                var bytes = 0
                for child in children[first..<(first + count)] {
                    guard child >= 0, Int(child) < index else { return false }
                    deepest = max(deepest, depth[Int(child)])
                    nodes += expandedNodes[Int(child)]
                    bytes += expandedBytes[Int(child)]
                    guard nodes <= YAMLComposer.maximumExpandedNodes, bytes <= YAMLComposer.maximumExpandedBytes else { return false }
                }
                guard deepest < YAMLComposer.maximumDepth else { return false }
                depth[index] = deepest + 1
                expandedNodes[index] = nodes
                expandedBytes[index] = bytes
            }
        }
        return true
    }
}
