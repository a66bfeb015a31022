import DispatcherCore
import JSONSupport

/// Whether a name an import meets (a header, query item, form field, JSON member, variable) holds
/// a credential, judged by what it is: what the redactor masks on screen (`token`, `password`,
/// `api_key`, `session` …) unless the name says it is about a credential rather than one
/// (`token_id`, `sessionId`, `secret_name`, `credential_id`, `token_type`): those stay values.
/// The redactor may mask too much on screen; an import that makes a secret of an id loses it.
enum CredentialName {
    /// Last words that make a name an identifier or a property of a credential, not the credential.
    static let describingWords: Set<String> = [
        "id", "ids", "name", "names", "type", "types", "count", "url", "uri", "length", "expiry", "expires", "expiration", "ttl",
        "status", "format", "version", "hint", "prefix", "location", "field", "header", "param", "policy", "required", "enabled",
        "at", "in", "duration", "kind", "scope", "scopes", "mode", "label", "path",
    ]

    /// Whether `name` holds a credential.
    static func isCredential(_ name: String) -> Bool {
        guard Redactor.standard.isSensitive(name: name) else { return false }
        guard let last = words(name).last else { return true }
        return !describingWords.contains(last)
    }

    /// Whether a query item or form field named `name` holds a credential (also the short names
    /// APIs give keys, signatures and OAuth's one-time codes: `key`, `sig`, `auth`, `jwt`, `code`).
    static func isCredentialQuery(_ name: String) -> Bool {
        ["key", "sig", "auth", "jwt", "signature", "apikey", "code"].contains(name.lowercased()) || isCredential(name)
    }

    /// The words of a name, lowercased: `sessionId` → session, id; `X-API-Key` → x, api, key.
    static func words(_ name: String) -> [String] {
        var result: [String] = []
        var current = ""
        var previousLower = false
        for character in name {
            if !character.isLetter && !character.isNumber {
                if !current.isEmpty { result.append(current) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower, !current.isEmpty {
                result.append(current)
                current = ""
            }
            current += character.lowercased()
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// A captured JSON body with the values of credential members masked (`Redactor.mask`), as
    /// the history shows them: captured tokens are never written into a fixture.
    static func masked(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                switch member.value {
                case .string, .number, .bool: return (member.key, isCredential(member.key) ? .string(Redactor.mask) : member.value)
                default: return (member.key, masked(member.value))
                }
            }))
        case .array(let elements): return .array(elements.map(masked))
        default: return value
        }
    }
}
