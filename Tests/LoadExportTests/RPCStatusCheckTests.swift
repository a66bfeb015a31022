import Expectations
import Testing

@testable import LoadExport
import TestTraits

/// A locustfile makes HTTP requests only: a check on a gRPC status is refused with its place, not dropped.
@Suite(.offPool) struct RPCStatusCheckTests {
    @Test func aGRPCStatusCheckIsRefused() {
        let expectations = ResponseExpectations([Assertion(.rpcStatus, .statusIn([.code(5)]))])
        #expect {
            _ = try LocustExport.checks(expectations, place: "shop/flow:buy step 1")
        } throws: { error in
            (error as? LoadExportError)?.message
                == "shop/flow:buy step 1: the check 'grpc-status is NOT_FOUND' is on a gRPC status, and a locustfile makes HTTP requests only"
        }
    }
}
