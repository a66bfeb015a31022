import Catalog
import DispatcherCore
import FoundationEssentials
import OAuth2
import Synchronization

/// An OAuth 2.0 issuer's signing keys (its JWKS), for checking the signatures of the JWTs it
/// issued: located through its metadata (`jwks_uri`), fetched once and kept for the session.
final class IssuerKeys: Sendable {
    private struct State {
        var location: URL?
        var keys: Data?
    }

    let issuer: URL?
    private let transport: any Transport
    private let state = Mutex(State())

    init(issuer: URL?, transport: any Transport) {
        self.issuer = issuer
        self.transport = transport
    }

    /// A sign-in read the issuer's metadata: remember where its keys are.
    func discovered(_ metadata: OAuth2Discovery?) {
        guard let url = metadata?.jwksURL else { return }
        state.withLock { $0.location = url }
    }

    /// What is known of `token`'s signature: checked against the issuer's keys when it publishes them.
    func signature(of token: String) async -> JWTSignature {
        guard let issuer else { return .unchecked("the catalog names no issuer (auth.oauth2.issuer) whose keys could check it") }
        do throws(OAuth2Error) {
            let keys = try await fetchKeys(issuer: issuer)
            guard let keys else { return .unchecked("the issuer publishes no keys (jwks_uri)") }
            return JWTSignatureCheck.check(token, jwks: keys)
        } catch {
            return .unchecked(error.message)
        }
    }

    private func fetchKeys(issuer: URL) async throws(OAuth2Error) -> Data? {
        let known = state.withLock { ($0.location, $0.keys) }
        if let keys = known.1 { return keys }
        var location = known.0
        if location == nil {
            // A token kept from an earlier run: this run has not read the metadata yet.
            location = try await OAuth2Discovery.discover(issuer: issuer, transport: transport).jwksURL
        }
        guard let location else { return nil }
        let keys = try await JWTSignatureCheck.fetchKeys(at: location, transport: transport)
        state.withLock {
            $0.location = location
            $0.keys = keys
        }
        return keys
    }
}
