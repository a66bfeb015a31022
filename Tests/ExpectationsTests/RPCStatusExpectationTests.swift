import DispatcherCore
import Foundation
import Testing

@testable import Expectations
import TestTraits

/// `grpc-status` checks: the call's code compared by number, said by name; an HTTP status check on
/// a call says the code beside it; a response that is not a call's fails a gRPC check.
@Suite(.offPool) struct RPCStatusExpectationTests {
    func facts(status: Int, grpcStatus: String?) -> ResponseFacts {
        let headers = [("content-type", "application/grpc")] + (grpcStatus.map { [("grpc-status", $0)] } ?? [])
        return ResponseFacts(status: status, headers: headers.map { HeaderField(name: $0.0, value: $0.1, origin: .server) })
    }

    func check(_ subject: Subject, _ predicate: ValuePredicate, _ facts: ResponseFacts) -> AssertionOutcome {
        var evaluator = ExpectationEvaluator(facts)
        return evaluator.evaluate(Assertion(subject, predicate))
    }

    @Test func theCodeIsComparedAndSaidByName() {
        let notFound = facts(status: 404, grpcStatus: "5")
        #expect(check(.rpcStatus, .statusIn([.code(5)]), notFound).passed)
        #expect(check(.rpcStatus, .statusIn([.code(0), .code(5)]), notFound).passed)
        let failed = check(.rpcStatus, .statusIn([.code(0), .code(14)]), notFound)
        #expect(!failed.passed)
        #expect(failed.expected == "is one of OK, UNAVAILABLE")
        #expect(failed.actual == "NOT_FOUND (5)")
        #expect(Assertion(.rpcStatus, .statusIn([.code(16)])).description == "grpc-status is UNAUTHENTICATED")
    }

    @Test func anHTTPStatusCheckOnACallSaysTheCode() {
        let failed = check(.status, .statusIn([.code(200)]), facts(status: 404, grpcStatus: "5"))
        #expect(!failed.passed)
        #expect(failed.actual == "404 (grpc-status NOT_FOUND)")
        #expect(check(.status, .statusIn([.code(200)]), facts(status: 200, grpcStatus: nil)).actual == "200")
    }

    @Test func aResponseThatIsNotACallsFailsAGRPCCheck() {
        let outcome = check(.rpcStatus, .statusIn([.code(0)]), facts(status: 200, grpcStatus: nil))
        #expect(!outcome.passed)
        #expect(outcome.actual == "absent (not a gRPC response)")
    }
}
