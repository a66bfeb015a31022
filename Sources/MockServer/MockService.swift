import Catalog
import DispatcherCore
import FoundationEssentials

/// A service as the mock server serves it: its endpoints and the delay and body limit of its
/// mock environment (the first environment whose base URL is on this machine).
public struct MockService: Sendable {
    /// The service.
    public let service: Service
    /// The environment pointing at the mock server, if any.
    public let environment: Environment?

    /// Makes a mock service.
    public init(_ service: Service) {
        self.service = service
        environment = service.environments.first { environment in
            ["127.0.0.1", "localhost", "::1", "[::1]"].contains(environment.baseURL.host ?? "")
        } ?? service.environments.first
    }

    /// The delay of the mock environment's `delayed(s)` fixtures type.
    var fixtureDelay: Duration? {
        if case .delayed(let delay) = environment?.fixtures { return delay }
        return nil
    }

    /// The largest body the mock environment accepts.
    var maximumBodySize: Int { environment?.maximumBodySize ?? Environment.defaultMaximumBodySize }
}
