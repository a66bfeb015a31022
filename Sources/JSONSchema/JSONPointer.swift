import JSONSupport
import TextSupport

/// JSON Pointers (RFC 6901) and the URI fragments `$ref` writes them as.
package enum JSONPointer {
    /// `~` and `/` escaped, as a pointer writes a member's name.
    package static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// The pointer made of `tokens` (`["a", "b/c"]` → `/a/b~1c`).
    package static func text(_ tokens: some Sequence<String>) -> String {
        var text = ""
        for token in tokens { text += "/" + escape(token) }
        return text
    }

    /// The tokens of a pointer (`""` → none); nil when it is not a pointer.
    package static func tokens(_ pointer: String) -> [String]? {
        guard !pointer.isEmpty else { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// The tokens of a `$ref` that points into its own document (`#`, `#/components/schemas/Pet`,
    /// percent-encoded as a URI fragment); nil for anything else (another file, an anchor).
    package static func tokens(reference: String) -> [String]? {
        guard reference.hasPrefix("#"), let fragment = PercentEncoding.decode(reference.dropFirst()) else { return nil }
        return tokens(fragment)
    }

    /// The value at `tokens` in `document`.
    package static func value(at tokens: [String], in document: JSONValue) -> JSONValue? {
        var value = document
        for token in tokens {
            switch value {
            case .object(let object):
                guard let member = object[token] else { return nil }
                value = member
            case .array(let elements):
                guard let index = Int(token), String(index) == token, elements.indices.contains(index) else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }
}
