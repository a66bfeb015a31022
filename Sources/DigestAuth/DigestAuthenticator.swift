import CryptoSupport
import DispatcherCore
import FoundationEssentials
import Synchronization

/// HTTP Digest authentication (RFC 7616, `qop=auth`, MD5, SHA-256 and SHA-512-256): on a 401 with a Digest
/// challenge it resumes the request once, answered; later requests answer the same challenge
/// (the nonce count goes up) until the server sends a new one.
package final class DigestAuthenticator: ErrorHandler, Sendable {
    package let name = "digest authentication"
    private let username: String
    private let password: String
    private let makeClientNonce: @Sendable () -> String
    /// The challenge being answered and how many times its nonce was used.
    private let state = Mutex<(challenge: DigestChallenge, count: Int)?>(nil)

    /// An authenticator for these credentials; `clientNonce` makes each request's cnonce (random by default).
    package init(username: String, password: String, clientNonce: (@Sendable () -> String)? = nil) {
        self.username = username
        self.password = password
        makeClientNonce = clientNonce ?? { (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined() }
    }

    package func handle(_ error: DispatchError, request: Request) async -> ErrorResolution? {
        guard error.status == 401, let response = error.response else { return nil }
        let values = response.headers.filter { Headers.sameName($0.name, "WWW-Authenticate") }.map(\.value)
        guard let challenge = DigestChallenge.parse(values).first else {
            // Only algorithms it cannot compute: said, not left to read as wrong credentials.
            let unsupported = DigestChallenge.unsupportedAlgorithms(values)
            guard !unsupported.isEmpty else { return nil }
            let message = "The server asks for Digest authentication with \(unsupported.joined(separator: ", ")), which is not supported: not sent again. "
                + "MD5, SHA-256 and SHA-512-256, each also with -sess, are (RFC 7616)."
            return .failed(
                DispatchError(kind: .unauthorized, message: message, status: 401, response: response, source: name),
                note: "Digest \(unsupported.joined(separator: ", ")) is not supported")
        }
        let answered = request.headers["Authorization"]?.hasPrefix("Digest ") == true
        // Refused with the nonce it gave: the credentials are wrong (unless it says the nonce is stale).
        if answered, !challenge.isStale, state.withLock({ $0?.challenge.nonce }) == challenge.nonce { return nil }
        state.withLock { $0 = (challenge, 0) }
        return .resume(note: "answering the Digest challenge of \(challenge.realm) (\(challenge.algorithm.rawValue))")
    }

    /// Adds the answer to the current challenge, when there is one.
    package var adapter: Interceptor.Adapter {
        Interceptor.Adapter(name: name) { request in
            guard let (challenge, count) = self.state.withLock({ state -> (DigestChallenge, Int)? in
                guard var current = state else { return nil }
                current.count += 1
                state = current
                return (current.challenge, current.count)
            }) else { return }
            var uri = request.url.path.isEmpty ? "/" : request.url.path
            if let query = request.url.query { uri += "?" + query }
            let value = Self.authorization(
                challenge, username: self.username, password: self.password, method: request.method.rawValue, uri: uri,
                nonceCount: count, clientNonce: self.makeClientNonce())
            request.headers.set("Authorization", value, origin: .interceptor(self.name))
        }
    }

    /// The `Authorization` value answering `challenge` (RFC 7616 §3.4).
    package static func authorization(
        _ challenge: DigestChallenge, username: String, password: String, method: String, uri: String, nonceCount: Int,
        clientNonce: String
    ) -> String {
        let hash: (String) -> String = { text in hex(challenge.algorithm, text) }
        let hexCount = String(nonceCount, radix: 16)
        let count = String(repeating: "0", count: max(0, 8 - hexCount.count)) + hexCount
        var a1 = hash("\(username):\(challenge.realm):\(password)")
        if challenge.algorithm.isSession { a1 = hash("\(a1):\(challenge.nonce):\(clientNonce)") }
        let a2 = hash("\(method):\(uri)")
        let usesQop = challenge.qop.contains("auth")
        let response = usesQop
            ? hash("\(a1):\(challenge.nonce):\(count):\(clientNonce):auth:\(a2)")
            : hash("\(a1):\(challenge.nonce):\(a2)")
        let user = challenge.userhash ? hash("\(username):\(challenge.realm)") : username
        var fields = [
            "username=\(quoted(user))", "realm=\(quoted(challenge.realm))", "uri=\(quoted(uri))",
            "algorithm=\(challenge.algorithm.rawValue)", "nonce=\(quoted(challenge.nonce))",
        ]
        if usesQop { fields += ["nc=\(count)", "cnonce=\(quoted(clientNonce))", "qop=auth"] }
        fields.append("response=\(quoted(response))")
        if let opaque = challenge.opaque { fields.append("opaque=\(quoted(opaque))") }
        if challenge.userhash { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    private static func hex(_ algorithm: DigestAlgorithm, _ text: String) -> String {
        algorithm.function.hexHash(text.utf8)
    }
}
