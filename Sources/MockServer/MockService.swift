import Catalog
import DispatcherCore
import FoundationEssentials

/// A service as the mock server serves it: its endpoints and the delay and body limit of its
/// mock environment (the first environment whose base URL is on this machine).
package struct MockService: Sendable {
    /// The service.
    package let service: Service
    /// The environment pointing at the mock server, if any.
    package let environment: Environment?

    /// Endpoints that send the `auth.refresh` token (in their own, their group's or the mock
    /// environment's headers): checked against the sessions when the catalog asks for them.
    let protectedEndpoints: Set<String>

    /// Makes a mock service.
    package init(_ service: Service) {
        self.service = service
        let environment = service.environments.first { environment in
            ["127.0.0.1", "localhost", "::1", "[::1]"].contains(environment.baseURL.host ?? "")
        } ?? service.environments.first
        self.environment = environment
        protectedEndpoints = service.mockSession == nil ? [] : service.endpointsSendingRefreshedToken(in: environment)
    }

    /// The delay of the mock environment's `delayed(s)` fixtures type.
    var fixtureDelay: Duration? {
        if case .delayed(let delay) = environment?.fixtures { return delay }
        return nil
    }

    /// The largest body the mock environment accepts.
    var maximumBodySize: Int { environment?.maximumBodySize ?? Environment.defaultMaximumBodySize }
}
