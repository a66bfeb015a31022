import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials

/// Reads and changes the sessions' cookies and tokens.
struct AuthEffects: Sendable {
    func perform(_ effect: AuthEffect, _ context: EffectContext) {
        switch effect {
        case .loadTokens(let environment, let mode):
            let session = context.session(environment, mode)
            context.load {
                let tokens = await session?.checkedTokens(stubbed: mode == .stub) ?? []
                return .auth(.tokensLoaded(environment: environment, mode: mode, tokens: tokens, at: Date()))
            }
        case .loadCookies(let environment, let mode):
            let cookies = context.session(environment, mode)?.cookies.all(at: Date()) ?? []
            context.post(.auth(.cookiesLoaded(environment: environment, mode: mode, cookies: cookies, at: Date())))
        case .clearCookies(let environment, let mode):
            context.session(environment, mode)?.cookies.remove()
        case .deleteCookie(let environment, let mode, let cookie):
            let jar = context.session(environment, mode)?.cookies
            jar?.remove(cookie)
            let now = Date()
            context.post(.auth(.cookiesLoaded(environment: environment, mode: mode, cookies: jar?.all(at: now) ?? [], at: now)))
        case .signInAgain(let environment, let mode):
            let session = context.session(environment, mode)
            context.load {
                guard let session else { return .auth(.signInFailed("\(environment.service) · \(environment.environment) is not in the catalogs.")) }
                if mode == .stub {
                    session.signOut(stubbed: true)
                } else {
                    do throws(DispatchError) {
                        _ = try await session.signInNow()
                    } catch {
                        return .auth(.signInFailed(error.message))
                    }
                }
                let tokens = await session.checkedTokens(stubbed: mode == .stub)
                return .auth(.tokensLoaded(environment: environment, mode: mode, tokens: tokens, at: Date()))
            }
        case .signOut(let environment, let mode):
            context.session(environment, mode)?.signOut(stubbed: mode == .stub)
        }
    }
}
