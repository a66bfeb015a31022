import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions

/// Cookies and tokens: the windows that show them (`K`, `T`), signing in again and out, device
/// sign-ins waiting for the person, and environments a handler signed out of.
package struct AuthState: Sendable {
    /// Sign-ins waiting for the person (device codes), by service and environment; gone once a
    /// request there finishes.
    package fileprivate(set) var signInPrompts: [EnvironmentKey: SignInPrompt] = [:]
    /// Environments signed out of (a handler's `signOut`, a token not renewed, the person), and
    /// why; shown until a request there succeeds again.
    package fileprivate(set) var signedOut: [EnvironmentKey: SignOut] = [:]
}

/// What happens to cookies, tokens and sign-ins.
package enum AuthAction: Sendable {
    /// `K` (the cookies) or `T` (the tokens) of the active environment.
    case command(AuthCommand)
    /// A key in the cookie or token window.
    case window(Command)
    /// The cookies of an environment and mode were read, at `at`.
    case cookiesLoaded(environment: EnvironmentKey, mode: RequestMode, cookies: [Cookie], at: Date)
    /// The tokens of an environment and mode were read, at `at`.
    case tokensLoaded(environment: EnvironmentKey, mode: RequestMode, tokens: [SessionToken], at: Date)
    /// Signing in again (from the token window) failed: why.
    case signInFailed(String)
    /// A sign-in waits for the person: the code to type and where (the OAuth 2.0 device flow).
    case signInPrompted(SignInPrompt)
    /// A request there finished; `signedOut` when it signed its session out, and why.
    case requestFinished(EnvironmentKey, succeeded: Bool, signedOut: SignOut?)
}

/// Work on the sessions' cookies and tokens.
package enum AuthEffect: Sendable, Hashable {
    /// Read the tokens the environment's session holds in `mode`, reporting `.tokensLoaded`.
    case loadTokens(environment: EnvironmentKey, mode: RequestMode)
    /// Read the environment's cookie jar in `mode`, reporting `.cookiesLoaded`.
    case loadCookies(environment: EnvironmentKey, mode: RequestMode)
    /// Empty the environment's cookie jar in `mode`.
    case clearCookies(environment: EnvironmentKey, mode: RequestMode)
    /// Delete one cookie of an environment's jar, then show the jar again.
    case deleteCookie(environment: EnvironmentKey, mode: RequestMode, cookie: Cookie)
    /// Sign in again now (OAuth 2.0), then show the tokens again (or say why not).
    case signInAgain(environment: EnvironmentKey, mode: RequestMode)
    /// Forget the environment's tokens and cookies in `mode`: the next request signs in again.
    case signOut(environment: EnvironmentKey, mode: RequestMode)
}

enum AuthFeature: AppFeature {
    /// What the windows open on.
    struct Context {
        /// The environment the panes show.
        var environment: EnvironmentKey?
        /// The mode its requests are sent in.
        var mode: RequestMode
    }

    static func context(of app: AppState) -> Context {
        Context(environment: app.activeEnvironmentKey, mode: app.sendMode)
    }

    static func reduce(_ state: inout AuthState, _ action: AuthAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .command(.showCookies):
            guard let environment = context.environment else { return [] }
            return [.auth(.loadCookies(environment: environment, mode: context.mode))]
        case .command(.showTokens):
            guard let environment = context.environment else { return [] }
            return [.auth(.loadTokens(environment: environment, mode: context.mode))]
        case .command(.deleteItem), .command(.signInAgain):
            // Keys of the windows: they arrive as `.window`.
            break
        case .window(let command):
            return handleWindow(command, state: &state, shell: &shell)
        case .cookiesLoaded(let environment, let mode, let cookies, let at):
            var window = CookiesWindow(environment: environment, mode: mode, cookies: cookies, shownAt: at)
            // Read again after a deletion: the cursor stays where it was.
            if case .auth(.cookies(let shown))? = shell.window, shown.environment == environment, shown.mode == mode {
                window.selected = min(shown.selected, max(0, cookies.count - 1))
            }
            shell.present(.auth(.cookies(window)))
        case .tokensLoaded(let environment, let mode, let tokens, let at):
            shell.present(.auth(.tokens(TokensWindow(environment: environment, mode: mode, tokens: tokens, shownAt: at))))
        case .signInFailed(let message):
            shell.notice = message
        case .signInPrompted(let prompt):
            state.signInPrompts[prompt.environment] = prompt
            shell.notice = prompt.sentence
            // Over SSH and in tmux too: the URL is on the clipboard, ready to paste into a browser.
            shell.requests.append(.copy(text: prompt.completeURL ?? prompt.verificationURL, description: "the sign-in URL"))
        case .requestFinished(let environment, let succeeded, let signedOut):
            // The code and URL of a sign-in that ended are no longer something to do.
            if let prompt = state.signInPrompts.removeValue(forKey: environment), shell.notice == prompt.sentence { shell.notice = nil }
            if let signedOut {
                state.signedOut[environment] = signedOut
            } else if succeeded {
                state.signedOut[environment] = nil
            }
        }
        return []
    }

    /// Keys in the cookie window (`d` deletes, Enter clears) and the token window (`S` signs in
    /// again, Enter signs out).
    static func handleWindow(_ command: Command, state: inout AuthState, shell: inout AppShell) -> [AppEffect] {
        if command == .close {
            shell.dismiss()
            return []
        }
        switch shell.window {
        case .auth(.cookies(var window))?:
            let count = window.cookies.count
            switch command {
            case .moveDown: window.selected = min(max(0, count - 1), window.selected + 1)
            case .moveUp: window.selected = max(0, window.selected - 1)
            case .moveToTop: window.selected = 0
            case .moveToBottom: window.selected = max(0, count - 1)
            case .auth(.deleteItem):
                guard window.cookies.indices.contains(window.selected) else { return [] }
                let cookie = window.cookies[window.selected]
                shell.notice = "Cookie \(cookie.name) of \(cookie.domain) deleted."
                return [.auth(.deleteCookie(environment: window.environment, mode: window.mode, cookie: cookie))]
            case .choose:
                shell.dismiss()
                shell.notice = "Cookies of \(window.environment.service) · \(window.environment.environment) cleared."
                return [.auth(.clearCookies(environment: window.environment, mode: window.mode))]
            default: return []
            }
            shell.present(.auth(.cookies(window)))
        case .auth(.tokens(var window))?:
            switch command {
            case .moveDown: window.scroll += 1
            case .moveUp: window.scroll = max(0, window.scroll - 1)
            case .moveToTop: window.scroll = 0
            case .choose:
                shell.dismiss()
                state.signedOut[window.environment] = .byPerson
                return [.auth(.signOut(environment: window.environment, mode: window.mode))]
            case .auth(.signInAgain):
                shell.notice = "Signing in to \(window.environment.service) · \(window.environment.environment) again…"
                return [.auth(.signInAgain(environment: window.environment, mode: window.mode))]
            default: return []
            }
            shell.present(.auth(.tokens(window)))
        default:
            break
        }
        return []
    }
}

/// The windows of cookies and tokens.
package enum AuthWindow: Sendable, Hashable {
    /// The cookies of an environment and mode, as they were when read.
    case cookies(CookiesWindow)
    /// The tokens of an environment and mode, as they were at `shownAt`.
    case tokens(TokensWindow)
}

/// The cookie jar of an environment in one mode, read when the window opened.
package struct CookiesWindow: Sendable, Hashable {
    /// Whose cookies.
    package var environment: EnvironmentKey
    /// Stub or live.
    package var mode: RequestMode
    /// The cookies, in the order they are sent.
    package var cookies: [Cookie]
    /// When they were read (for expiry).
    package var shownAt: Date
    /// The cookie under the cursor (`d` deletes it).
    package var selected = 0

    /// Makes a window.
    package init(environment: EnvironmentKey, mode: RequestMode, cookies: [Cookie], shownAt: Date) {
        self.environment = environment
        self.mode = mode
        self.cookies = cookies
        self.shownAt = shownAt
    }
}

/// The tokens an environment holds in one mode, read when the window opened.
package struct TokensWindow: Sendable, Hashable {
    /// Whose tokens.
    package var environment: EnvironmentKey
    /// Stub or live.
    package var mode: RequestMode
    /// The tokens.
    package var tokens: [SessionToken]
    /// When they were read (expiry countdowns count from here).
    package var shownAt: Date
    /// The first line shown.
    package var scroll = 0

    /// Makes a window.
    package init(environment: EnvironmentKey, mode: RequestMode, tokens: [SessionToken], shownAt: Date) {
        self.environment = environment
        self.mode = mode
        self.tokens = tokens
        self.shownAt = shownAt
    }
}
