import TextSupport

/// A `WWW-Authenticate: Digest …` challenge (RFC 7616 §3.3).
package struct DigestChallenge: Sendable, Hashable {
    /// The protection space.
    package var realm: String
    /// The server's nonce.
    package var nonce: String
    /// Returned as is.
    package var opaque: String?
    /// The hash to use (MD5 when the server names none).
    package var algorithm: DigestAlgorithm
    /// The qop values offered (`auth`, `auth-int`).
    package var qop: [String]
    /// Whether the nonce went stale (the credentials were right).
    package var isStale: Bool
    /// Whether the username is to be hashed (`userhash=true`).
    package var userhash: Bool

    /// Reads the Digest challenges among `WWW-Authenticate` values, strongest algorithm first;
    /// challenges of other schemes and algorithms it cannot compute are skipped.
    package static func parse(_ values: [String]) -> [DigestChallenge] {
        values.flatMap(challenges).sorted { $0.algorithm.strength > $1.algorithm.strength }
    }

    /// The algorithms of Digest challenges among `WWW-Authenticate` values that cannot be answered
    /// (`SHA-512`, not an RFC 7616 one), in order, each once.
    package static func unsupportedAlgorithms(_ values: [String]) -> [String] {
        var names: [String] = []
        for value in values {
            var digest = false
            for token in split(value) {
                let text = token.trimmedSpaces
                var pairText = text
                if let space = text.firstIndex(of: " "), !text[..<space].contains("=") {
                    digest = text[..<space].lowercased() == "digest"
                    pairText = String(text[text.index(after: space)...])
                }
                guard digest, let (name, algorithm) = pair(pairText), name == "algorithm",
                    !DigestAlgorithm.allCases.contains(where: { $0.rawValue.lowercased() == algorithm.lowercased() }), !names.contains(algorithm)
                else { continue }
                names.append(algorithm)
            }
        }
        return names
    }

    /// Every Digest challenge of one header value (a value may hold several, comma-separated).
    private static func challenges(in value: String) -> [DigestChallenge] {
        var found: [DigestChallenge] = []
        var parameters: [String: String]?
        for token in split(value) {
            let text = token.trimmedSpaces
            // A new challenge starts with its scheme: `Digest realm=…` or `Basic realm=…`.
            if let space = text.firstIndex(of: " "), !text[..<space].contains("=") {
                if let parameters, let challenge = make(parameters) { found.append(challenge) }
                let scheme = text[..<space].lowercased()
                parameters = scheme == "digest" ? [:] : nil
                if parameters != nil, let pair = pair(String(text[text.index(after: space)...])) { parameters?[pair.0] = pair.1 }
            } else if parameters != nil, let pair = pair(text) {
                parameters?[pair.0] = pair.1
            }
        }
        if let parameters, let challenge = make(parameters) { found.append(challenge) }
        return found
    }

    private static func make(_ parameters: [String: String]) -> DigestChallenge? {
        guard let realm = parameters["realm"], let nonce = parameters["nonce"] else { return nil }
        let algorithm: DigestAlgorithm?
        if let name = parameters["algorithm"] {
            algorithm = DigestAlgorithm.allCases.first { $0.rawValue.lowercased() == name.lowercased() }
        } else {
            algorithm = .md5
        }
        guard let algorithm else { return nil }
        let qop = parameters["qop"].map { $0.split(separator: ",").map { $0.trimmedSpaces.lowercased() } } ?? []
        return DigestChallenge(
            realm: realm, nonce: nonce, opaque: parameters["opaque"], algorithm: algorithm, qop: qop,
            isStale: parameters["stale"]?.lowercased() == "true", userhash: parameters["userhash"]?.lowercased() == "true")
    }

    /// `name=value` or `name="quoted value"`.
    private static func pair(_ text: String) -> (String, String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let name = text[..<equals].trimmedSpaces.lowercased()
        var value = text[text.index(after: equals)...].trimmedSpaces
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            value = String(value.dropFirst().dropLast()).replacing("\\\"", with: "\"").replacing("\\\\", with: "\\")
        }
        return (name, value)
    }

    /// Splits at commas outside quotes.
    private static func split(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }
}
