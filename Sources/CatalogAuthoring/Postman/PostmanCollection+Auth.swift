import JSONSupport

extension PostmanCollection {
    /// What an auth block adds to a request.
    struct Authorization {
        var headers: [(String, String)] = []
        var query: [(String, String)] = []
    }

    /// An auth block's parameters: v2.1 writes `[{key, value}]`, v2.0 an object.
    static func authParameters(_ auth: JSONValue) -> [(String, String)] {
        guard let type = auth.member("type")?.text, let parameters = auth.member(type) else { return [] }
        if case .array(let items) = parameters {
            return items.compactMap { item in item.member("key")?.text.map { ($0, item.member("value").map(PostmanVariable.text) ?? "") } }
        }
        return parameters.members.map { ($0.key, PostmanVariable.text($0.value)) }
    }

    /// The headers (or query items) an auth block stands for, credentials as `{{secret.NAME}}`:
    /// a credential given as `{{variable}}` is that variable's secret, a literal one a secret
    /// named after its role (its value is not written).
    mutating func authorization(_ auth: JSONValue, owner: String) -> Authorization {
        let type = auth.member("type")?.text ?? "noauth"
        let parameters = Dictionary(Self.authParameters(auth), uniquingKeysWith: { first, _ in first })
        var result = Authorization()
        switch type {
        case "noauth", "inherit":
            break
        case "bearer":
            result.headers = [("Authorization", "Bearer \(credential(parameters["token"], label: "token"))")]
        case "basic":
            let placeholder = secrets.placeholder("basic")
            result.headers = [("Authorization", "Basic \(placeholder)")]
            let user = parameters["username"].map { $0.isEmpty ? "" : " (user \($0))" } ?? ""
            notes.append("\(owner) uses basic auth\(user): set \(secrets.name(for: "basic")) to base64 of user:password")
        case "apikey":
            let key = parameters["key"].flatMap { $0.isEmpty ? nil : $0 } ?? "X-API-Key"
            let value = credential(parameters["value"], label: key)
            if parameters["in"] == "query" { result.query = [(key, value)] } else { result.headers = [(key, value)] }
        case "oauth2":
            let value = credential(parameters["accessToken"], label: "access-token")
            let prefix = parameters["headerPrefix"].flatMap { $0.isEmpty ? nil : $0 } ?? "Bearer"
            if parameters["addTokenTo"] == "queryParams" {
                result.query = [("access_token", value)]
            } else {
                result.headers = [("Authorization", "\(prefix) \(value)")]
            }
            notes.append("\(owner) uses OAuth 2.0: the token is {{secret.\(secrets.name(for: "access-token"))}} (get one and set it; the grant is not run)")
        default:
            notes.append("\(owner) uses \(type) auth, which catalogs cannot sign requests with: it was left out")
        }
        return result
    }

    /// A credential's placeholder: `{{variable}}` → that variable's secret; anything else → a
    /// secret named after `label`.
    mutating func credential(_ value: String?, label: String) -> String {
        if let value, let variable = Self.wholePlaceholder(value) {
            secretVariables.insert(variable)
            return rewrite("{{\(variable)}}")
        }
        return secrets.placeholder(label)
    }
}
