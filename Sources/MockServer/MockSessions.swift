import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import Synchronization

/// Sessions the mock keeps for a service whose catalog asks for them (`mock: { session: … }`):
/// its `auth.refresh` endpoint issues a new token each time it answers, and the endpoints that
/// send that token answer the endpoint's `expired` example (or a 401 saying the session expired)
/// when the token is unknown or used up. So refresh → resume → 200 can be tried live, offline.
final class MockSessions: Sendable {
    private struct State {
        var uses: [String: Int] = [:]
        var issued = 0
    }

    private let state = Mutex(State())

    /// A new token, good for `expiresAfter` uses.
    func issue(for service: String) -> String {
        state.withLock { state in
            state.issued += 1
            let token = "mock-\(service)-token-\(state.issued)"
            state.uses[token] = 0
            return token
        }
    }

    /// Whether a request carrying these header values may pass: it holds a token issued here that is
    /// not used up; a pass counts as a use.
    func admit(_ values: [String], expiresAfter: Int) -> Bool {
        state.withLock { state in
            guard let token = state.uses.keys.first(where: { token in values.contains { $0.contains(token) } }),
                let used = state.uses[token], used < expiresAfter
            else { return false }
            state.uses[token] = used + 1
            return true
        }
    }

    /// The login fixture's body with the new token where `auth.refresh.token` says it is
    /// (`$.access_token`, `$.data.token`: member names only).
    static func body(_ body: Data, settingToken token: String, at path: JSONPath) -> Data {
        let names = path.expression.split(separator: ".").dropFirst().map(String.init)
        guard path.expression.hasPrefix("$."), !names.isEmpty, names.allSatisfy({ !$0.contains("[") }),
            let value = try? JSONValue.parse(body)
        else { return body }
        return Data(setting(token, in: value, at: names[...]).compactText.utf8)
    }

    private static func setting(_ token: String, in value: JSONValue, at names: ArraySlice<String>) -> JSONValue {
        guard let name = names.first else { return .string(token) }
        var object: JSONObject = if case .object(let existing) = value { existing } else { JSONObject([]) }
        object[name] = setting(token, in: object[name] ?? .object(JSONObject([])), at: names.dropFirst())
        return .object(object)
    }
}
