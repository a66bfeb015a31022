import DispatcherCore
import TextSupport

/// A credential written out where a catalog should say `{{secret.NAME}}`: a header, query item,
/// form field or JSON member whose name marks a credential (`Authorization`, `Cookie`, `X-API-Key`,
/// `token`, `password` …, as the redactor masks them) or whose value looks like a token (a JWT, a
/// GitHub, Slack, AWS or OpenAI key), holding no placeholder. Catalogs are shared and committed:
/// `validate` warns about them, and the explorer never writes one (`EndpointEdits.typedCredentials`).
package enum LiteralCredential {
    /// Whether `value`, under `name`, is a credential written out.
    package static func isCredential(name: String, value: String) -> Bool {
        isCredential(name: name, value: value, nameIsSensitive: { Redactor.standard.isSensitiveQuery($0) })
    }

    /// `isCredential(name:value:)` with the name's sensitivity asked of `nameIsSensitive` (the
    /// catalog decoder remembers it per name).
    static func isCredential(name: String, value: String, nameIsSensitive: (String) -> Bool) -> Bool {
        guard !value.isEmpty, !value.hasPlaceholderOpening else { return false }
        if nameIsSensitive(name) {
            // `Authorization: Bearer` alone, `Cookie:` of nothing: no credential in it.
            return secretPart(of: value, name: name) != nil
        }
        return looksLikeToken(value)
    }

    /// The part of a header value that is the credential: after an auth scheme (`Bearer abc` →
    /// `abc`), else all of it; nil when there is none.
    package static func secretPart(of value: String, name: String) -> Substring? {
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization" {
            guard let space = value.firstIndex(of: " ") else {
                // A scheme alone (`Bearer`) carries nothing; a bare token does.
                return ["bearer", "basic", "digest", "token", "negotiate"].contains(value.lowercased()) ? nil : Substring(value)
            }
            let rest = value[value.index(after: space)...].drop { $0 == " " }
            return rest.isEmpty ? nil : rest
        }
        return Substring(value)
    }

    /// Whether a value looks like a token whatever its name: a JWT, or a key with a well-known prefix.
    package static func looksLikeToken(_ value: String) -> Bool {
        // Runs for every value of every request a catalog loads: most are over at the first byte.
        guard value.utf8.count >= 16, let first = value.utf8.first,
            [UInt8(ascii: "e"), UInt8(ascii: "g"), UInt8(ascii: "x"), UInt8(ascii: "s"), UInt8(ascii: "A")].contains(first)
        else { return false }
        let prefixes = ["ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "sk-", "sk_live_", "AKIA", "AIza"]
        if prefixes.contains(where: { value.hasPrefix($0) }), !value.contains(" ") { return true }
        guard value.hasPrefix("eyJ") else { return false }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { $0.count >= 8 && $0.allSatisfy(isBase64URL) }
    }

    private static func isBase64URL(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_" || character == "=")
    }

    /// A secret name for a credential of `service` found under `label` (`shop`, `X-API-Key` →
    /// `SHOP_X_API_KEY`; an Authorization's bearer token → `SHOP_TOKEN`).
    package static func suggestedName(service: String, label: String) -> String {
        func upper(_ text: String) -> String {
            var result = ""
            for scalar in text.unicodeScalars {
                if scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(Character(scalar)) {
                    result += String(scalar).uppercased()
                } else if !result.hasSuffix("_") {
                    result += "_"
                }
            }
            return String(result.trimming(where: { $0 == "_" }))
        }
        let prefix = upper(service)
        let name = upper(label)
        return name.hasPrefix(prefix) || prefix.isEmpty ? name : prefix + "_" + name
    }
}
