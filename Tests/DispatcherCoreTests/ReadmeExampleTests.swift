import DispatcherCore
import Foundation
import Testing
import TestTraits

// The example in README.md ("Use the core from Swift"), kept compiling and true here.

enum GitHub: TargetType {
    case user(login: String)

    var identifier: String { "github/user" }
    var path: String { "/users/{{login}}" }
    var method: HTTPMethod { .get }
    var pathParameters: [String: String] {
        switch self { case .user(let login): ["login": login] }
    }
    var sampleResponse: SampleResponse { .status(200, Data(#"{"login":"octocat"}"#.utf8)) }
    var examples: [NamedSample] {
        [NamedSample(name: "rateLimited", sample: .response(status: 429, headers: ["Retry-After": "60"], body: Data()))]
    }
}

@Suite(.offPool) struct ReadmeExampleTests {
    @Test func theReadmeExampleWorksInStubMode() async throws {
        let production = Environment(
            name: "prod", type: .production, baseURL: URL(string: "https://api.github.com")!,
            headers: ["Accept": "application/vnd.github+json"], fixtures: .immediate)
        let dispatcher = Dispatcher<GitHub>(environment: production, plugins: [NetworkActivityPlugin { _, _ in }])

        let response = try await dispatcher.request(.user(login: "octocat"))
        #expect(response.status == 200)

        let limited = await dispatcher.send(.user(login: "octocat"), options: RequestOptions(example: "rateLimited"))
        #expect(limited.error?.kind == .tooManyRequests)
        #expect(limited.error?.retryAfter == .seconds(60))
    }
}
