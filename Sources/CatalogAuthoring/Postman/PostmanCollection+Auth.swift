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
    mutating func authorization(_ auth: JSONValue, owner: String, at location: String?) -> Authorization {
        let type = auth.member("type")?.text ?? "noauth"
        let parameters = Dictionary(Self.authParameters(auth), uniquingKeysWith: { first, _ in first })
        var result = Authorization()
        switch type {
        case "noauth", "inherit":
            break
        case "bearer":
            result.headers = [("Authorization", "Bearer \(credential(parameters["token"], label: "token"))")]
        case "basic":
            let user = parameters["username"] ?? ""
            let placeholder = secrets.placeholder("basic", identity: "\(user)\u{0}\(parameters["password"] ?? "")", form: "base64 of user:password")
            result.headers = [("Authorization", "Basic \(placeholder)")]
            notes.append(ImportNote(.info, at: location, "\(owner) uses basic auth\(user.isEmpty ? "" : " (user \(user))"): \(placeholder) holds base64 of user:password"))
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
            notes.append(ImportNote(.info, at: location, "\(owner) uses OAuth 2.0: its token is \(value) (get one and set it; the grant is not run)"))
        default:
            // OAuth 1.0, Hawk, AWS Signature, Digest, NTLM, Akamai EdgeGrid: signed per request,
            // which an endpoint's headers cannot say. Its credentials stay secrets (never in clear).
            let shown = Self.authNames[type] ?? type
            notes.append(ImportNote(.skipped, at: location, "\(owner): its \(shown) auth was left out (catalogs cannot sign requests with it); requests are sent without it"))
        }
        return result
    }

    /// Whether an auth block puts its credential in the query (an API key or OAuth 2.0 token sent so).
    static func authorizationHasQuery(_ auth: JSONValue) -> Bool {
        let parameters = Dictionary(authParameters(auth), uniquingKeysWith: { first, _ in first })
        return parameters["in"] == "query" || parameters["addTokenTo"] == "queryParams"
    }

    /// How Postman's auth types are called.
    static let authNames: [String: String] = [
        "oauth1": "OAuth 1.0", "hawk": "Hawk", "awsv4": "AWS Signature", "digest": "Digest", "ntlm": "NTLM", "edgegrid": "Akamai EdgeGrid",
        "asap": "ASAP", "jwt": "JWT bearer",
    ]

    /// Auth parameters that are settings, not credentials: everything else an auth block holds
    /// (OAuth 1.0's consumer key, AWS's access key …) is a credential, its variable a secret.
    static let authSettings: Set<String> = [
        "key", "in", "addTokenTo", "headerPrefix", "signatureMethod", "version", "realm", "timestamp", "nonce", "addParamsToHeader",
        "addEmptyParamsToSign", "includeBodyHash", "algorithm", "qop", "nonceCount", "clientNonce", "opaque", "grant_type", "tokenType",
        "client_authentication", "scope", "authUrl", "accessTokenUrl", "redirect_uri", "useBrowser", "tokenName", "service", "region",
        "challengeAlgorithm", "state", "username", "user", "disableRetryRequest", "callback", "verifier", "headerPrefix", "queryParamKey",
        "payload", "header", "isSecretBase64Encoded", "baseURL", "clientId", "client_id", "authId", "extraData", "app", "delegation",
    ]

    /// A credential's placeholder: `{{variable}}` → that variable's secret; anything else → a
    /// secret named after `label` (its own name when another credential has that label).
    mutating func credential(_ value: String?, label: String) -> String {
        if let value, let variable = Self.wholePlaceholder(value) {
            secretVariables.insert(variable)
            return rewrite("{{\(variable)}}")
        }
        return secrets.placeholder(label, identity: value ?? "")
    }
}
