import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport
import YAMLSupport

extension CatalogFileDecoder {
    /// A scalar as text: strings, numbers and booleans as written; nil (after an error) otherwise.
    func text(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard case .scalar(let scalar) = node.content else {
            error("\(what()) must be text, not \(describe(node))", at: node)
            return nil
        }
        if case .null = YAMLScalar(scalar) {
            error("\(what()) must be text, not null", at: node)
            return nil
        }
        return scalar.text
    }

    /// Text that must not be empty.
    func nonEmptyText(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard let value = text(node, what()) else { return nil }
        guard !value.isBlank else {
            error("\(what()) must not be empty", at: node)
            return nil
        }
        return value
    }

    /// An integer, optionally within a range.
    func integer(_ node: YAMLNode, _ what: @autoclosure () -> String, in range: ClosedRange<Int>? = nil) -> Int? {
        guard case .scalar(let scalar) = node.content, case .int(let value) = YAMLScalar(scalar) else {
            error("\(what()) must be a whole number, not \(describe(node))", at: node)
            return nil
        }
        if let range, !range.contains(value) {
            error("\(what()) must be between \(range.lowerBound) and \(range.upperBound), not \(value)", at: node)
            return nil
        }
        return value
    }

    /// A number (integer or decimal).
    func number(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Double? {
        if case .scalar(let scalar) = node.content {
            switch YAMLScalar(scalar) {
            case .int(let value): return Double(value)
            case .double(let value) where value.isFinite: return value
            default: break
            }
        }
        error("\(what()) must be a number, not \(describe(node))", at: node)
        return nil
    }

    /// `true` or `false`.
    func boolean(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Bool? {
        guard case .scalar(let scalar) = node.content, case .bool(let value) = YAMLScalar(scalar) else {
            let hint: String
            if case .scalar(let scalar) = node.content, ["yes", "no", "on", "off", "y", "n"].contains(scalar.text.lowercased()) {
                hint = " (write true or false)"
            } else {
                hint = ""
            }
            error("\(what()) must be true or false, not \(describe(node))\(hint)", at: node)
            return nil
        }
        return value
    }

    /// Whether a node is YAML null (`~`, `null` or nothing).
    func isNull(_ node: YAMLNode) -> Bool {
        guard case .scalar(let scalar) = node.content else { return false }
        return YAMLScalar(scalar) == .null
    }

    /// A duration: a number of seconds, or text with a unit (`250ms`, `2s`, `1.5m`).
    func duration(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Duration? {
        if case .scalar(let scalar) = node.content {
            switch YAMLScalar(scalar) {
            case .int(let value) where value >= 0: return .seconds(value)
            case .double(let value) where value >= 0 && value.isFinite: return .seconds(value)
            case .string(let text):
                if let parsed = CatalogFileDecoder.parseDuration(text) { return parsed }
            default: break
            }
        }
        error("\(what()) must be a duration in seconds (5, 0.25) or with a unit (250ms, 2s, 1m), not \(describe(node))", at: node)
        return nil
    }

    /// A duration, or `none`/null for "no limit" (the outer optional is nil after an error).
    func optionalDuration(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Duration?? {
        if isNull(node) { return .some(nil) }
        if case .scalar(let scalar) = node.content, scalar.text == "none" { return .some(nil) }
        guard let value = duration(node, what()) else { return nil }
        return .some(value)
    }

    /// `250ms`, `2s`, `1.5m`, `0.3` → a duration.
    static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmedSpaces
        let units: [(suffix: String, scale: Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count).trimmedSpaces
            guard let value = Double(number), value >= 0, value.isFinite, number.first?.isNumber ?? false else { return nil }
            return .seconds(value * unit.scale)
        }
        guard let value = Double(trimmed), value >= 0, value.isFinite, trimmed.first?.isNumber ?? false else { return nil }
        return .seconds(value)
    }

    /// A byte count: a number, or text with a unit (`512KB`, `10MiB`, `1GB`).
    func byteCount(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Int? {
        if case .scalar(let scalar) = node.content {
            switch YAMLScalar(scalar) {
            case .int(let value) where value > 0: return value
            case .string(let text):
                if let value = CatalogFileDecoder.parseByteCount(text) { return value }
            default: break
            }
        }
        error("\(what()) must be a size in bytes (1048576) or with a unit (512KB, 10MiB, 1GB), not \(describe(node))", at: node)
        return nil
    }

    static func parseByteCount(_ text: String) -> Int? {
        let units: [(suffix: String, scale: Double)] = [
            ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
            ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1),
        ]
        let trimmed = text.trimmedSpaces
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count).trimmedSpaces
            guard let value = Double(number), value > 0, value * unit.scale < Double(Int.max / 2) else { return nil }
            return Int(value * unit.scale)
        }
        return nil
    }

    /// A list of nodes; a single value is read as a list of one.
    func list(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [YAMLNode] {
        switch node.content {
        case .sequence(let sequence): return Array(sequence)
        case .mapping:
            error("\(what()) must be a list or a single value, not \(describe(node))", at: node)
            return []
        default: return [node]
        }
    }

    /// A mapping of names to text values, in order (numbers and booleans are kept as written).
    func textMap(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [(key: String, value: String)]? {
        guard let entries = entries(node, what()) else { return nil }
        var result: [(key: String, value: String)] = []
        result.reserveCapacity(entries.count)
        var failed = false
        for entry in entries {
            if let value = text(entry.value, "'\(entry.key)' in \(what())") {
                result.append((entry.key, value))
            } else {
                failed = true
            }
        }
        return failed ? nil : result
    }

    /// A mapping of names to text values as a dictionary.
    func textDictionary(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [String: String]? {
        guard let pairs = textMap(node, what()) else { return nil }
        // Built by hand: `Dictionary(_:uniquingKeysWith:)` casts and merges, at a cost per endpoint.
        var dictionary = [String: String](minimumCapacity: pairs.count)
        for (key, value) in pairs { dictionary[key] = value }
        return dictionary
    }

    /// Header names and values.
    func headers(_ node: YAMLNode, _ what: @autoclosure () -> String, origin: HeaderOrigin) -> Headers? {
        guard let pairs = textMap(node, what()) else { return nil }
        for (name, _) in pairs where !CatalogFileDecoder.isHeaderName(name) {
            error("'\(name)' is not a valid header name in \(what())", at: node)
            return nil
        }
        return Headers(pairs.map { HeaderField(name: $0.key, value: $0.value, origin: origin) })
    }

    /// RFC 9110 token characters.
    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Ids of services, environments, groups, endpoints and examples: letters, digits, `-`, `_`, `.`.
    func identifier(_ id: String, at node: YAMLNode, _ what: @autoclosure () -> String) -> Bool {
        let valid = !id.isEmpty && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        if !valid {
            error("'\(id)' is not a valid \(what()) id: use letters, digits, '-', '_' and '.'", at: node)
        }
        return valid
    }

    /// A JSONPath such as `$.errors[*].message`; syntax errors point at the offending column.
    func jsonPath(_ node: YAMLNode, _ what: @autoclosure () -> String) -> JSONPath? {
        guard let expression = nonEmptyText(node, what()) else { return nil }
        do {
            return try JSONPath(expression)
        } catch {
            var column = node.column
            if let scalar = node.scalar, !expression.contains("\n") {
                // Quoted scalars start at their quote.
                column += (scalar.style == .quoted ? 1 : 0) + max(0, error.column - 1)
            }
            report(.error, "\(what()) is not a valid JSONPath: \(error.reason)", line: node.line, column: column)
            return nil
        }
    }

    /// The body file of an endpoint's stub or example, named at `node`.
    func fixtureFile(_ node: YAMLNode, example: String, endpointID: String) -> FixtureFile? {
        guard let path = nonEmptyText(node, FixtureFile.describe(example: example, endpointID: endpointID)) else { return nil }
        return FixtureFile(
            path: path, location: SourceLocation(file: file, line: node.line, column: node.column), example: example, endpointID: endpointID,
            limit: bodyFileLimit, allowsOutsidePaths: allowsOutsidePaths, isTrusted: isTrusted, fileSystem: fileSystem)
    }

    /// The size (nil when unknown) of a file the catalog may read; nil after an error saying why not.
    private func readableSize(_ path: String, _ node: YAMLNode, _ what: String) -> Int?? {
        let access = fileSystem.access(path, allowingOutside: readsOutsidePaths)
        switch access {
        case .readable(let size): return .some(size)
        case .missing: error("\(what) does not exist: '\(path)'\(siblingHint(for: path))", at: node)
        default: error("\(what) \(problem(of: access)): '\(path)'", at: node)
        }
        return nil
    }

    /// Why a file cannot be used; for a file outside the folder of a catalog that allows it but is
    /// not trusted yet, says so.
    func problem(of access: CatalogFileAccess) -> String {
        FixtureFile.problem(of: access, allowsOutsidePaths: allowsOutsidePaths, isTrusted: isTrusted)
    }

    /// `; did you mean 'fixtures/pet.json'?` when a file in the same folder has a close name.
    func siblingHint(for path: String) -> String { FixtureFile.siblingHint(for: path, in: fileSystem) }

    /// A file the transport reads itself (CA, client certificate): must exist.
    func fileReference(_ node: YAMLNode, _ what: @autoclosure () -> String) -> URL? {
        guard let path = nonEmptyText(node, what()) else { return nil }
        guard let url = fileSystem.fileURL(for: path) else {
            error("\(what()) '\(path)' cannot be used: certificate files need a catalog folder on disk", at: node)
            return nil
        }
        guard readableSize(path, node, what()) != nil else { return nil }
        return url
    }
}
