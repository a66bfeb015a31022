import Catalog
import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import TestRunner
import TestTraits

/// The runner's error matrix (issue 49, item 1): every transport failure × every expectation form.
/// The transport fails after a head and part of a body that would satisfy every check on its own
/// (status 200, the header, `$.ok: true`, more than 10 bytes, a quick answer): no combination may
/// pass, and none may be reported as anything but an error.
@Suite(.offPool) struct ErrorMatrixTests {
    /// One expectation form, as catalog YAML under an endpoint (`expect:`) or a flow step (`until:`).
    struct Form: Sendable, CustomTestStringConvertible {
        var name: String
        var yaml: String
        var testDescription: String { name }
    }

    static let forms: [Form] = [
        Form(name: "status", yaml: "expect: { status: 200 }"),
        Form(name: "headers", yaml: "expect: { headers: { X-Kind: partial } }"),
        Form(name: "JSONPath", yaml: "expect: { body: { $.ok: true } }"),
        Form(name: "bodySize", yaml: "expect: { bodySize: { greaterThan: 10 } }"),
        Form(name: "time", yaml: "expect: { time: { lessThan: 60s } }"),
        Form(name: "until", yaml: "until: '$.ok == true'"),
        Form(name: "nothing expected", yaml: ""),
    ]

    /// A head and a body that every form above would accept, had the transfer ended well.
    static func partial() -> Response {
        var response = Response(
            status: 200, headers: Headers([("Content-Type", "application/json"), ("X-Kind", "partial")], origin: .server),
            body: Data(#"{"ok":true,"padding":"xxxxxxxx"}"#.utf8), timing: Timing(firstByte: .milliseconds(1), total: .milliseconds(2)))
        response.isTruncated = true
        return response
    }

    /// Throws a transport failure, with the partial response when `withHead`.
    final class FailingTransport: Transport {
        let code: TransportError.Code
        let withHead: Bool
        init(_ code: TransportError.Code, withHead: Bool) {
            self.code = code
            self.withHead = withHead
        }
        func send(_ request: Request) async throws(TransportError) -> Response {
            throw TransportError(code, timeoutPhase: code == .timedOut ? .total : nil, partialResponse: withHead ? ErrorMatrixTests.partial() : nil)
        }
    }

    static func catalog(_ form: Form) -> String {
        let isUntil = form.yaml.hasPrefix("until")
        return """
            service: shop
            environments:
              local:
                baseURL: http://127.0.0.1:9
                fixtures: never
                retry: none
            endpoints:
              get:
                path: /get
                \(isUntil ? "" : form.yaml)
            flows:
              poll:
                steps:
                  - endpoint: get
                    \(isUntil ? form.yaml + "\n        every: 1s\n        atMost: 5s" : "")
            """
    }

    @Test(arguments: forms)
    func noTransportFailurePassesAnyForm(_ form: Form) async throws {
        let (catalog, _) = try loadCatalog(Self.catalog(form))
        let target = form.yaml.hasPrefix("until") ? "shop/flow:poll" : "shop/get"
        let testCase = try #require(TestSelection.cases([target], environment: nil, in: catalog).first)
        var seen: [String] = []
        for code in TransportError.Code.allCases {
            for withHead in [true, false] {
                let runner = TestRunner(
                    caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: FailingTransport(code, withHead: withHead)),
                    mode: .live)
                let result = await runner.run(testCase)
                let label = "\(code.rawValue)\(withHead ? " after a head" : "")"
                #expect(result.status == .errored, "\(form.name) × \(label): \(result.status) \(result.summary ?? "")")
                #expect(TestTally([result]).exitStatus == 3, "\(form.name) × \(label)")
                let step = try #require(result.failingStep, "\(form.name) × \(label)")
                // Nothing is checked against part of a response: no outcome at all, passed or not.
                #expect(step.outcomes.isEmpty, "\(form.name) × \(label): \(step.outcomes)")
                #expect(step.attempts == 1, "\(form.name) × \(label): a failed transfer is not polled again")
                #expect(step.problem?.hasPrefix(ErrorKind(transportCode: code).name + ":") == true, "\(form.name) × \(label): \(step.problem ?? "")")
                if withHead { #expect(step.responseStatus == 200) }
                seen.append(label)
            }
        }
        #expect(seen.count == TransportError.Code.allCases.count * 2)
    }

    /// The control: the same head and body, arrived whole, passes every form, so the matrix above
    /// errs because the transfer failed, not because the forms cannot pass.
    @Test(arguments: forms)
    func theSameAnswerWholePassesEveryForm(_ form: Form) async throws {
        let (catalog, _) = try loadCatalog(Self.catalog(form))
        let target = form.yaml.hasPrefix("until") ? "shop/flow:poll" : "shop/get"
        let testCase = try #require(TestSelection.cases([target], environment: nil, in: catalog).first)
        let transport = ScriptedTransport { _, _ in
            var whole = ErrorMatrixTests.partial()
            whole.isTruncated = false
            return whole
        }
        let runner = TestRunner(caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: transport), mode: .live)
        let result = await runner.run(testCase)
        #expect(result.status == .passed, "\(form.name): \(result.summary ?? "")")
    }

    /// Body checks never pass on part of a body, even where no transport error says so (a body
    /// kept short while it streamed past).
    @Test func bodyChecksFailOnAnIncompleteBody() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog(Self.forms[2]))
        let testCase = try #require(TestSelection.cases(["shop/get"], environment: nil, in: catalog).first)
        let runner = TestRunner(
            caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: ScriptedTransport { _, _ in ErrorMatrixTests.partial() }),
            mode: .live)
        let result = await runner.run(testCase)
        #expect(result.status == .failed)
        #expect(result.summary?.contains("an incomplete body") == true, "\(result.summary ?? "")")
    }
}
