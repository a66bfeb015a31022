import FoundationEssentials

/// Adds `Authorization: Bearer <token>` from a credential store (nothing when it holds no token).
public struct BearerAuthPlugin: Plugin {
    /// Where the token lives.
    public var store: CredentialStore
    /// Shown as the header's origin.
    public var name: String

    /// Makes the plugin.
    public init(store: CredentialStore, name: String = "bearer") {
        self.store = store
        self.name = name
    }

    public func prepare(_ request: inout Request, target: any TargetType) {
        guard let token = store.token else { return }
        request.headers.set("Authorization", "Bearer \(token)", origin: .auth(name))
    }
}

/// Adds `Authorization: Basic base64(user:password)`.
public struct BasicAuthPlugin: Plugin {
    /// The user name.
    public var username: String
    /// The password.
    public var password: String
    /// Shown as the header's origin.
    public var name: String

    /// Makes the plugin.
    public init(username: String, password: String, name: String = "basic") {
        self.username = username
        self.password = password
        self.name = name
    }

    public func prepare(_ request: inout Request, target: any TargetType) {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        request.headers.set("Authorization", "Basic \(credentials)", origin: .auth(name))
    }
}

/// Adds an API key as a header (`X-API-Key`) or a query item (`api_key`).
public struct APIKeyAuthPlugin: Plugin {
    /// Where the key goes.
    public enum Placement: Sendable, Hashable {
        case header(String)
        case query(String)
    }

    /// The key.
    public var key: String
    /// Where it goes.
    public var placement: Placement
    /// Shown as the header's origin.
    public var name: String

    /// Makes the plugin.
    public init(key: String, placement: Placement = .header("X-API-Key"), name: String = "api key") {
        self.key = key
        self.placement = placement
        self.name = name
    }

    public func prepare(_ request: inout Request, target: any TargetType) {
        switch placement {
        case .header(let header):
            request.headers.set(header, key, origin: .auth(name))
        case .query(let item):
            let separator = request.url.query == nil ? "?" : "&"
            if let url = URL(string: request.url.absoluteString + separator + FormEncoding.encode([QueryItem(name: item, value: key)])) {
                request.url = url
            }
        }
    }
}
