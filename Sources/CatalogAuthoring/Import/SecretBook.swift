import JSONSupport
import TextSupport

/// The secrets an import found: each becomes `{{secret.NAME}}` in the catalog, its value is never
/// written; the `local` environment gets a harmless stand-in so stub mode works at once.
struct SecretBook {
    /// The service the names are made for (`SHOP_TOKEN` in service `shop`).
    let service: String
    /// The names, in the order found.
    private(set) var names: [String] = []
    /// Which credential each name stands for (its label's name and, for a value written in the
    /// document, the value): one credential one name, two credentials two names.
    private var owners: [String: String] = [:]
    /// What to put in a secret, when it is not the value as it was written (`base64 of user:password`).
    private var forms: [String: String] = [:]

    init(service: String) { self.service = service }

    /// `SERVICE_LABEL`, or `LABEL` when the label already starts with the service's name or is
    /// written as a secret's name already (`API_KEY`: an export's own names come back as they were).
    func name(for label: String) -> String {
        if let first = label.unicodeScalars.first, ("A"..."Z").contains(first),
            label.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        {
            return label
        }
        return label.lowercased().hasPrefix(service.lowercased()) ? Identifier.secretName(label) : Identifier.secretName(service, label)
    }

    /// The placeholder for the secret named after `label`, recorded. `identity` tells credentials
    /// apart that share a label (two bearer tokens, two basic auths): each gets its own name
    /// (`SHOP_TOKEN`, `SHOP_TOKEN_2`); nil means the label is the credential (a variable's name).
    /// `form` says what the secret holds when it is not the value as written.
    mutating func placeholder(_ label: String, identity: String? = nil, form: String? = nil) -> String {
        let base = name(for: label)
        let key = base + "\u{0}" + (identity ?? "")
        var name = base
        var number = 2
        while let owner = owners[name], owner != key {
            name = "\(base)_\(number)"
            number += 1
        }
        if owners[name] == nil {
            owners[name] = key
            names.append(name)
        }
        if let form { forms[name] = form }
        return "{{secret.\(name)}}"
    }

    /// An Authorization-like header value with its credentials replaced: `Bearer abc` → `Bearer
    /// {{secret.S_TOKEN}}`, `Basic …` → `Basic {{secret.S_BASIC}}`; each scheme and value its own secret.
    mutating func authorization(_ value: String, label: String) -> String {
        guard let space = value.firstIndex(of: " ") else { return placeholder(label, identity: value) }
        let scheme = String(value[..<space])
        let credentials = value[value.index(after: space)...].trimmed
        switch scheme.lowercased() {
        case "bearer": return "\(scheme) \(placeholder("token", identity: credentials))"
        case "basic":
            // REST Client writes `Basic user password`; the header carries base64 of user:password.
            let form = credentials.contains(" ") || credentials.contains(":") ? "base64 of user:password" : nil
            return "\(scheme) \(placeholder("basic", identity: credentials, form: form))"
        default: return "\(scheme) \(placeholder(scheme.lowercased() == "token" ? "token" : "\(label) \(scheme)", identity: credentials))"
        }
    }

    /// A query item's, form field's or JSON member's value: a secret when its name says it holds a
    /// credential and it is written out (a value holding placeholders already comes from somewhere else).
    mutating func value(named name: String, _ value: String) -> String {
        guard !value.isEmpty, !value.contains("{{"), CredentialName.isCredentialQuery(name) else { return value }
        return placeholder(name, identity: value)
    }

    /// A JSON body with the values of its credential members replaced by secrets.
    mutating func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                if case .string(let text) = member.value, CredentialName.isCredential(member.key) {
                    return (member.key, .string(self.value(named: member.key, text)))
                }
                return (member.key, json(member.value))
            }))
        case .array(let elements):
            return .array(elements.map { json($0) })
        default:
            return value
        }
    }

    /// `NAME: demo-name` stand-ins for a development environment.
    var standIns: [(String, String)] {
        names.map { ($0, "demo-\($0.lowercased().replacing("_", with: "-"))") }
    }

    /// One note per secret, saying where to set it.
    var notes: [ImportNote] {
        names.map { name in
            let form = forms[name].map { " (it holds the \($0))" } ?? ""
            return ImportNote(.info, "set $APIEXPLORER_SECRET_\(name) in the environment or \(name) in .env beside the catalog\(form) (the imported value is not written; local uses a stand-in)")
        }
    }
}
