import ResponseDiff
import YAMLSupport

extension CatalogFileDecoder {
    static let compareKeys = ["ignore", "arrays"]

    /// `compare: { ignore: [LOCATION | header:NAME | status …], arrays: { LOCATION: KEY } }`:
    /// what `apiexplorer diff` leaves out, and arrays it matches by a key member. Each location is
    /// read now, so a wrong one is an error at its line rather than a surprise in a diff.
    func decodeCompare(_ node: YAMLNode, _ subject: String) -> CompareSettings? {
        guard let entries = entries(node, "'compare' of \(subject)", allowed: Self.compareKeys) else { return nil }
        var settings = CompareSettings()
        for entry in entries {
            switch entry.key {
            case "ignore":
                let items: [YAMLNode] = if case .sequence(let sequence) = entry.value.content { Array(sequence) } else { [entry.value] }
                for item in items {
                    guard let rule = nonEmptyText(item, "an 'ignore' rule of \(subject)") else { continue }
                    if let problem = CompareRules(ignore: [rule]).problems.first {
                        error("'compare' of \(subject): \(problem)", at: item)
                    } else {
                        settings.ignore.append(rule)
                    }
                }
            case "arrays":
                guard let pairs = textMap(entry.value, "'arrays' of the compare rules of \(subject)") else { continue }
                for (location, key) in pairs {
                    if let problem = CompareRules(arrays: [(location, key)]).problems.first {
                        error("'compare' of \(subject): \(problem)", at: entry.value)
                    } else {
                        settings.arrays.append(CompareSettings.KeyedArray(location: location, key: key))
                    }
                }
            default: break
            }
        }
        return settings
    }
}

/// An endpoint's `compare:` rules, as written (`CompareRules` is what a comparison takes).
package struct CompareSettings: Sendable, Hashable {
    /// An array matched by a member rather than by position.
    package struct KeyedArray: Sendable, Hashable {
        package var location: String
        package var key: String
    }

    /// Locations (`$.meta.requestId`), `header:NAME` or `status`.
    package var ignore: [String] = []
    package var arrays: [KeyedArray] = []

    package init() {}

    /// The rules for a comparison.
    package var rules: CompareRules {
        CompareRules(ignore: ignore, arrays: arrays.map { ($0.location, $0.key) })
    }
}
