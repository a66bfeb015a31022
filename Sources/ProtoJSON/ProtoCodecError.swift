import JSONSupport

/// Why a message could not be read or written, and where: a JSON path from the message's root
/// (`$.point.latitude: expected a number, got "x"`), for binary input too.
package struct ProtoCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: [ProtoPathComponent]
    package var reason: String

    package init(_ reason: String, path: [ProtoPathComponent] = []) {
        self.reason = reason
        self.path = path
    }

    /// The path as JSONPath: `$.features[2].location`, `$.labels["a b"]`.
    package var pathText: String {
        var text = "$"
        for component in path {
            switch component {
            case .field(let name):
                if !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
                    text += ".\(name)"
                } else {
                    text += "[\(Self.quoted(name))]"
                }
            case .index(let index): text += "[\(index)]"
            case .key(let key): text += "[\(Self.quoted(key))]"
            }
        }
        return text
    }

    package var description: String { "\(pathText): \(reason)" }

    /// The error with `component` in front of its path (errors are built innermost first).
    func inside(_ component: ProtoPathComponent) -> ProtoCodecError {
        var error = self
        error.path.insert(component, at: 0)
        return error
    }

    static func quoted(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        return output
    }
}

/// A step of a path into a message: a field (by the name the JSON uses), an index of a repeated
/// field or a key of a map.
package enum ProtoPathComponent: Sendable, Hashable {
    case field(String)
    case index(Int)
    case key(String)
}
