import Catalog
import DispatcherCore

/// A catalog handler that signs out (`do: signOut`) forgot the session's token and cookies; the
/// explorer forgets what it captured there too, and says so until a request there succeeds.
extension AppReducer {
    static func signOutIfHandled(_ record: CallOutcome, state: inout AppState) {
        let environment = record.call.environmentKey
        var notes = record.exchange.notes + record.exchange.trace.compactMap { event -> String? in
            if case .handled(_, let note) = event.kind { note } else { nil }
        }
        // An OAuth 2.0 token that could not be renewed signed the session out too.
        if let error = record.exchange.error, error.source == ServiceSession.oauth2SignOutSource {
            notes.append(String(error.message.prefix { $0 != ";" }))
        }
        guard let note = notes.first(where: { $0.hasPrefix(ServiceSession.signedOutPrefix) }) else {
            if record.exchange.error == nil { state.signedOut[environment] = nil }
            return
        }
        let reason = record.exchange.error.map { ": \($0.kind)" } ?? ""
        state.signedOut[environment] = note.contains(":") ? note : note + reason
        // Values captured from the session (ids, tokens) belong to it.
        state.captured[environment]?[record.call.mode] = [:]
    }
}
