import DispatcherCore
import Foundation
import Testing
import TestTraits

@Suite(.offPool) struct EndpointMappingTests {
    @Test func fillsPathPlaceholdersFromParametersThenVariables() throws {
        let env = environment(variables: ["petId": "7", "version": "v9"])
        let target = Target(.get, "/{{version}}/pet/{{ petId }}", pathParameters: ["petId": "42"])
        let endpoint = try Endpoint.resolve(target, in: env)
        #expect(endpoint.url.absoluteString == "https://api.example.test/v1/v9/pet/42")
    }

    @Test func anUnresolvedPlaceholderIsAnInvalidRequestThatNamesIt() async {
        let exchange = await Dispatcher<Target>(environment: environment()).send(Target(.get, "/pet/{{petId}}/{{other}}"))
        #expect(exchange.error?.kind == .invalidRequest)
        #expect(exchange.error?.message.contains("{{petId}}, {{other}}") == true)
        #expect(exchange.attempts == 0)
    }

    @Test func joinsBaseURLsPathsAndQueries() throws {
        func url(_ base: String, _ path: String, _ query: [QueryItem] = []) throws -> String {
            try URLBuilder.url(base: URL(string: base)!, path: path, query: query).absoluteString
        }
        #expect(try url("https://h/v3/", "/pet") == "https://h/v3/pet")
        #expect(try url("https://h/v3", "pet") == "https://h/v3/pet")
        #expect(try url("https://h", "") == "https://h")
        #expect(try url("https://h/x?k=1", "/y", [QueryItem(name: "q", value: "a b&c")]) == "https://h/x/y?k=1&q=a%20b%26c")
        #expect(try url("https://h", "/y", [QueryItem(name: "flag", value: nil)]) == "https://h/y?flag")
    }

    @Test func templatesReportEveryMissingNameOnce() throws {
        #expect(throws: TemplateError(unresolved: ["a", "b"], template: "{{a}}/{{b}}/{{a}}")) {
            try Template("{{a}}/{{b}}/{{a}}").render { _ in nil }
        }
        #expect(try Template("x{{}}y{{ a }}").render { _ in "1" } == "x{{}}y1")

        #expect(Template("{{secret.TOKEN}} and {{id}}").placeholders == ["secret.TOKEN", "id"])
    }

    @Test func theEndpointHookCanAddHeadersAndChangeTheURL() async throws {
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            endpointMapping: { target, environment throws(DispatchError) in
                var endpoint = try Endpoint.resolve(target, in: environment)
                endpoint.url = URL(string: endpoint.url.absoluteString + "?debug=1")!
                return endpoint.adding(header: "X-Client", value: "tests")
            })
        let exchange = await dispatcher.send(Target(.get, "/pets"))
        #expect(exchange.request.url.absoluteString.hasSuffix("/pets?debug=1"))
        #expect(exchange.request.headers.field(named: "X-Client")?.origin == .plugin("endpoint mapping"))
    }

    @Test func theRequestHookShapesTheFinalRequest() async throws {
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            requestMapping: { endpoint, options in
                var request = Request.make(from: endpoint, options: options)
                request.method = .head
                return request
            })
        let exchange = await dispatcher.send(Target(.get, "/pets"))
        #expect(exchange.request.method == .head)
    }

    @Test func formAndTextBodiesAreEncoded() {
        #expect(RequestBody.form([QueryItem(name: "user name", value: "a+b")]).encoded().data == Data("user%20name=a%2Bb".utf8))
        #expect(RequestBody.form([]).encoded().contentType == "application/x-www-form-urlencoded")
        #expect(RequestBody.text("hi", contentType: nil).encoded().contentType == "text/plain; charset=utf-8")
        #expect(FormEncoding.decode("a=1&b=two+words&c") == [
            QueryItem(name: "a", value: "1"), QueryItem(name: "b", value: "two words"), QueryItem(name: "c", value: nil),
        ])
    }
}
