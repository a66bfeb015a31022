import DispatcherCore
import Synchronization

/// A session signed out: its token and cookies are forgotten and its next request signs in
/// again. Told apart by what signed it out, not by the words of a note.
package enum SignOut: Sendable, Hashable {
    /// A catalog handler (`do: signOut`, in `handlers:` or `results:`) took an error of this kind.
    case byHandler(ErrorKind)
    /// The OAuth 2.0 token held could not be renewed: why.
    case tokenNotRenewed(String)
    /// The person signed out (the explorer's token window).
    case byPerson

    /// Why, in a few words (`forbidden`, `by you`).
    package var reason: String {
        switch self {
        case .byHandler(let kind): "\(kind)"
        case .tokenNotRenewed(let why): "the OAuth 2.0 token could not be renewed (\(why))"
        case .byPerson: "by you"
        }
    }
}

/// The sign-outs of a session's requests, by request id (retries and resumes keep it), until the
/// caller takes them with the finished exchange.
final class SignOutLog: Sendable {
    private let signOuts = Mutex<[UInt64: SignOut]>([:])

    func record(_ signOut: SignOut, for request: UInt64) {
        signOuts.withLock { $0[request] = signOut }
    }

    func take(for request: UInt64) -> SignOut? {
        signOuts.withLock { $0.removeValue(forKey: request) }
    }
}

extension ServiceSession {
    /// Whether the request that made `exchange` signed this session out, and why (asked once:
    /// the answer is forgotten).
    package func signOut(of exchange: Exchange) -> SignOut? {
        handlerContext.signOuts.take(for: exchange.request.id)
    }
}
