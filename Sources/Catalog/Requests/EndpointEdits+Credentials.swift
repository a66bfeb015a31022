import DispatcherCore
import FoundationEssentials
import JSONSupport

/// A credential typed into an edit (a header, query item, form field or JSON member written out,
/// see `LiteralCredential`): the explorer never writes one into a catalog file; it asks the
/// secret's name and writes `{{secret.NAME}}` instead.
package struct TypedCredential: Sendable, Hashable {
    /// Where it is, for people (`header Authorization`, `query item api_key`, `body member token`).
    package var place: String
    /// The credential itself (after an auth scheme); never shown.
    package var value: String
    /// The name first offered for its secret (`SHOP_TOKEN`).
    package var suggestedName: String
}

extension EndpointEdits {
    /// Every credential the edits write out, in order (headers, query, body).
    package func typedCredentials(service: String) -> [TypedCredential] {
        var found: [TypedCredential] = []
        _ = replacingCredentials(service: service) { credential in
            found.append(credential)
            return nil
        }
        return found
    }

    /// The edits with the credentials `typedCredentials` lists replaced, in the same order, by
    /// `{{secret.NAME}}` for each of `names` (a bearer token keeps its scheme: `Bearer {{secret.NAME}}`).
    package func replacingCredentials(service: String, names: [String]) -> EndpointEdits {
        var remaining = names[...]
        return replacingCredentials(service: service) { _ in remaining.popFirst().map { Placeholder.secret($0) } }
    }

    /// Walks the credentials; `replace` gives each one's placeholder, or nil to keep it.
    private func replacingCredentials(service: String, _ replace: (TypedCredential) -> String?) -> EndpointEdits {
        var edits = self
        func items(_ items: [Item], _ kind: String, isHeader: Bool) -> [Item] {
            items.map { item in
                guard let value = item.value, LiteralCredential.isCredential(name: item.name, value: value),
                    let secret = isHeader ? LiteralCredential.secretPart(of: value, name: item.name) : Substring(value)
                else { return item }
                let lower = item.name.lowercased()
                let label = isHeader && (lower == "authorization" || lower == "proxy-authorization") && value.lowercased().hasPrefix("bearer ")
                    ? "token" : item.name
                let credential = TypedCredential(
                    place: "\(kind) \(item.name)", value: String(secret), suggestedName: LiteralCredential.suggestedName(service: service, label: label))
                guard let placeholder = replace(credential) else { return item }
                var replaced = item
                replaced.value = String(value[..<secret.startIndex]) + placeholder
                return replaced
            }
        }
        if let headers { edits.headers = items(headers, "header", isHeader: true) }
        if let query { edits.query = items(query, "query item", isHeader: false) }
        switch body {
        case .form(let fields)?: edits.body = .form(items(fields, "form field", isHeader: false))
        case .text(let text, let isJSON)? where isJSON:
            guard let value = try? JSONValue.parse(Data(text.utf8)) else { break }
            var changed = false
            func walk(_ value: JSONValue, name: String) -> JSONValue {
                switch value {
                case .string(let string) where LiteralCredential.isCredential(name: name, value: string):
                    let credential = TypedCredential(
                        place: "body member \(name.isEmpty ? "(in a list)" : name)", value: string,
                        suggestedName: LiteralCredential.suggestedName(service: service, label: name.isEmpty ? "token" : name))
                    guard let placeholder = replace(credential) else { return value }
                    changed = true
                    return .string(placeholder)
                case .array(let elements): return .array(elements.map { walk($0, name: name) })
                case .object(let object): return .object(JSONObject(object.map { ($0.key, walk($0.value, name: $0.key)) }))
                default: return value
                }
            }
            let walked = walk(value, name: "")
            if changed { edits.body = .text(text.contains("\n") ? walked.prettyText() : walked.compactText, isJSON: true) }
        default: break
        }
        return edits
    }
}
