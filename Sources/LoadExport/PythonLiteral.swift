import Expectations
import JSONSupport

/// Python source text for values a locustfile carries: JSON values, assertions, JSONPaths.
enum PythonLiteral {
    /// A double-quoted string literal (JSON's escapes are Python's too).
    static func string(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        return output
    }

    /// `None`, `True`, `7`, `"a"`, `[…]`, `{…}`.
    static func value(_ value: JSONValue) -> String {
        switch value {
        case .null: "None"
        case .bool(let flag): flag ? "True" : "False"
        case .number(let literal): literal
        case .string(let text): string(text)
        case .array(let elements): "[" + elements.map(Self.value).joined(separator: ", ") + "]"
        case .object(let object): "{" + object.map { "\(string($0.key)): \(Self.value($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// A predicate as the file's `_holds` reads it: `["equals", 200]`, `["count", ["equals", 3]]`.
    static func predicate(_ predicate: ValuePredicate) -> String {
        switch predicate {
        case .equals(let wanted): "[\"equals\", \(value(wanted))]"
        case .notEquals(let unwanted): "[\"notEquals\", \(value(unwanted))]"
        case .lessThan(let bound): "[\"lt\", \(number(bound))]"
        case .lessThanOrEqual(let bound): "[\"le\", \(number(bound))]"
        case .greaterThan(let bound): "[\"gt\", \(number(bound))]"
        case .greaterThanOrEqual(let bound): "[\"ge\", \(number(bound))]"
        case .matches(let pattern): "[\"matches\", \(string(pattern))]"
        case .exists(let present): "[\"exists\", \(present ? "True" : "False")]"
        case .isKind(let kind): "[\"kind\", \(string(kind.rawValue))]"
        case .count(let inner): "[\"count\", \(self.predicate(inner))]"
        case .contains(let wanted): "[\"contains\", \(value(wanted))]"
        case .includesAll(let wanted): "[\"includesAll\", \(value(.array(wanted)))]"
        case .startsWith(let prefix): "[\"startsWith\", \(string(prefix))]"
        case .endsWith(let suffix): "[\"endsWith\", \(string(suffix))]"
        case .statusIn(let patterns):
            "[\"statusIn\", [" + patterns.map { pattern in
                switch pattern {
                case .code(let code): "[\"code\", \(code)]"
                case .hundreds(let digit): "[\"hundreds\", \(digit)]"
                }
            }.joined(separator: ", ") + "]]"
        }
    }

    static func number(_ number: Double) -> String { JSONValue.double(number).compactText }

    /// A JSONPath as segments the file's `_select` walks: `[["child", [["name", "id"]]]]`; nil
    /// when it uses a filter (`[?(…)]`), which the file's small helper does not evaluate.
    static func path(_ path: JSONPath) -> String? {
        var segments: [String] = []
        for segment in path.segments {
            let (kind, selectors): (String, [JSONPath.Selector]) = switch segment {
            case .child(let selectors): ("child", selectors)
            case .descendant(let selectors): ("descendant", selectors)
            }
            var parts: [String] = []
            for selector in selectors {
                switch selector {
                case .name(let name): parts.append("[\"name\", \(string(name))]")
                case .index(let index): parts.append("[\"index\", \(index)]")
                case .wildcard: parts.append("[\"wildcard\"]")
                case .slice(let start, let end, let step):
                    parts.append("[\"slice\", \(optional(start)), \(optional(end)), \(optional(step))]")
                case .filter: return nil
                }
            }
            segments.append("[\"\(kind)\", [" + parts.joined(separator: ", ") + "]]")
        }
        return "[" + segments.joined(separator: ", ") + "]"
    }

    private static func optional(_ number: Int?) -> String { number.map(String.init) ?? "None" }

    /// A Python identifier made of `text`'s letters and digits (`adopt-pets` → `AdoptPets`).
    static func className(_ text: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first, !first.isNumber else { return "Flow" + joined }
        return joined
    }
}
