import DispatcherCore
import JSONSupport

/// The secrets an import found: each becomes `{{secret.NAME}}` in the catalog, its value is never
/// written; the `local` environment gets a harmless stand-in so stub mode works at once.
struct SecretBook {
    /// The service the names are made for (`SHOP_TOKEN` in service `shop`).
    let service: String
    /// The names, in the order found.
    private(set) var names: [String] = []

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

    /// The placeholder for the secret named after `label`, recorded.
    mutating func placeholder(_ label: String) -> String {
        let name = name(for: label)
        if !names.contains(name) { names.append(name) }
        return "{{secret.\(name)}}"
    }

    /// An Authorization-like header value with its credentials replaced: `Bearer abc` → `Bearer {{secret.S_TOKEN}}`.
    mutating func authorization(_ value: String, label: String) -> String {
        guard let space = value.firstIndex(of: " ") else { return placeholder(label) }
        let scheme = String(value[..<space])
        return "\(scheme) \(placeholder(scheme.lowercased() == "bearer" ? "token" : label))"
    }

    /// A query item's, form field's or JSON member's value: a secret when its name is secret-like
    /// and it is written out (a value holding placeholders already comes from somewhere else).
    mutating func value(named name: String, _ value: String) -> String {
        guard !value.isEmpty, !value.contains("{{"), Redactor.standard.isSensitiveQuery(name) else { return value }
        return placeholder(name)
    }

    /// A JSON body with the values of its secret-named members replaced by secrets.
    mutating func json(_ value: JSONValue) -> JSONValue {
        var book = self
        let result = CurlImporter.redactedJSON(value, redactor: .standard) { name, text in book.value(named: name, text) }
        self = book
        return result
    }

    /// `NAME: demo-name` stand-ins for a development environment.
    var standIns: [(String, String)] {
        names.map { ($0, "demo-\($0.lowercased().replacing("_", with: "-"))") }
    }

    /// One note per secret, saying where to set it.
    var notes: [ImportNote] {
        names.map { ImportNote(.info, "set $APIEXPLORER_SECRET_\($0) in the environment or \($0) in .env beside the catalog (the imported value is not written; local uses a stand-in)") }
    }
}
