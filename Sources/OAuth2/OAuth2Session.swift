import DispatcherCore
import FoundationEssentials
import Synchronization

/// The token of one service, environment and mode: obtained when first needed, refreshed before it
/// expires (with the refresh token when there is one, else by signing in again), dropped when a
/// request carrying it is refused. Concurrent requests share one sign-in or refresh.
package final class OAuth2Session: Sendable {
    private struct State {
        var token: OAuth2Token?
        var pending: Task<OAuth2Token, any Error>?
        var signIns = 0
        var refreshes = 0
    }

    private let state = Mutex(State())
    private let obtain: @Sendable (_ refreshToken: String?) async throws(OAuth2Error) -> OAuth2Token
    private let now: @Sendable () -> Date
    private let margin: Duration
    private let onChange: @Sendable (OAuth2Token?) -> Void

    /// A session over a client; `now` tells the time (tests give their own). `initial` is a token
    /// kept from an earlier run; `onChange` hears every new token (and nil on sign-out), to keep it.
    package convenience init(
        client: OAuth2Client, now: @escaping @Sendable () -> Date = { Date() }, initial: OAuth2Token? = nil,
        onChange: @escaping @Sendable (OAuth2Token?) -> Void = { _ in }
    ) {
        self.init(margin: client.configuration.refreshMargin, now: now, initial: initial, onChange: onChange) { refreshToken throws(OAuth2Error) in
            try await Self.obtain(with: client, refreshToken: refreshToken)
        }
    }

    /// A token from `client`: refreshed when there is a refresh token, else (or when the server
    /// refuses it as `invalid_grant`: expired or revoked) by signing in again.
    package static func obtain(with client: OAuth2Client, refreshToken: String?) async throws(OAuth2Error) -> OAuth2Token {
        if let refreshToken {
            do throws(OAuth2Error) {
                return try await client.refresh(refreshToken)
            } catch {
                guard error.code == "invalid_grant" else { throw error }
            }
        }
        return try await client.signIn()
    }

    /// A session over any way of getting tokens (a stub's fixed token, say).
    package init(
        margin: Duration = .seconds(30), now: @escaping @Sendable () -> Date = { Date() }, initial: OAuth2Token? = nil,
        onChange: @escaping @Sendable (OAuth2Token?) -> Void = { _ in },
        obtain: @escaping @Sendable (_ refreshToken: String?) async throws(OAuth2Error) -> OAuth2Token
    ) {
        self.margin = margin
        self.now = now
        self.obtain = obtain
        self.onChange = onChange
        state.withLock { $0.token = initial }
    }

    /// The current token, if any (for the token view; it may be expired).
    package var token: OAuth2Token? { state.withLock { $0.token } }

    /// How many times it signed in and refreshed.
    package var counts: (signIns: Int, refreshes: Int) { state.withLock { ($0.signIns, $0.refreshes) } }

    /// A token that is good now: the current one, or a new one (shared with concurrent callers).
    package func validToken() async throws(OAuth2Error) -> OAuth2Token {
        let now = self.now()
        let task = state.withLock { state -> Task<OAuth2Token, any Error>? in
            if let token = state.token, !token.isExpired(at: now, margin: margin) { return nil }
            if let pending = state.pending { return pending }
            let refreshToken = state.token?.refreshToken
            // OpenID Connect §12.2: a refresh need not send a new ID token; the one held stays.
            let idToken = refreshToken == nil ? nil : state.token?.idToken
            if refreshToken == nil { state.signIns += 1 } else { state.refreshes += 1 }
            let obtain = self.obtain
            let pending = Task { () async throws -> OAuth2Token in
                var token = try await obtain(refreshToken)
                if token.idToken == nil { token.idToken = idToken }
                return token
            }
            state.pending = pending
            return pending
        }
        guard let task else { return state.withLock { $0.token! } }
        do {
            let token = try await task.value
            let stored = state.withLock { state -> Bool in
                guard state.pending == task else { return false }
                state.token = token
                state.pending = nil
                return true
            }
            if stored { onChange(token) }
            return token
        } catch {
            state.withLock { state in
                if state.pending == task { state.pending = nil }
            }
            throw (error as? OAuth2Error) ?? OAuth2Error(code: "unknown", message: "\(error)")
        }
    }

    /// Forgets `accessToken` if it is still the current one (a request carrying it was refused):
    /// the next request gets a new token; its refresh token is kept for that.
    package func invalidate(_ accessToken: String) {
        state.withLock { state in
            guard state.token?.accessToken == accessToken, var token = state.token else { return }
            token.expiresAt = .distantPast
            state.token = token
        }
    }

    /// Signs out: the token and its refresh token are forgotten.
    package func signOut() {
        state.withLock { $0.token = nil }
        onChange(nil)
    }
}
