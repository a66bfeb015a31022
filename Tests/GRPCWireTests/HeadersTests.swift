import NIOHPACK
import Testing

@testable import GRPCWire
import TestTraits

/// The header blocks of a call: what a client sends, what it makes of each kind of answer, what
/// a server checks and answers; metadata's text and binary values.
@Suite(.offPool) struct HeadersTests {
    static func fields(_ headers: HPACKHeaders) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    @Test func aRequestLeadsWithPseudoHeadersThenGRPCsFieldsThenTheMetadata() {
        var metadata = GRPCMetadata()
        metadata.append("authorization", "Bearer t")
        metadata.append("x-trace-bin", binary: [0xFF, 0x00, 0x10])
        metadata.append("grpc-timeout", "2000m")
        let headers = GRPCHeaders.request(
            path: "/routeguide.RouteGuide/GetFeature", authority: "127.0.0.1:50051", secure: false, metadata: metadata, encoding: .gzip,
            userAgent: "apiexplorer grpc")
        #expect(Self.fields(headers) == [
            ":method: POST", ":scheme: http", ":path: /routeguide.RouteGuide/GetFeature", ":authority: 127.0.0.1:50051",
            "content-type: application/grpc", "te: trailers", "user-agent: apiexplorer grpc", "grpc-accept-encoding: identity,gzip",
            "grpc-encoding: gzip", "authorization: Bearer t", "x-trace-bin: /wAQ", "grpc-timeout: 2000m",
        ])
    }

    @Test func aCallersUserAgentReplacesOurs() {
        var metadata = GRPCMetadata()
        metadata.append("user-agent", "mine/1.0")
        let headers = GRPCHeaders.request(path: "/a.B/C", authority: "h:1", secure: true, metadata: metadata, encoding: .identity, userAgent: "ours")
        #expect(headers[canonicalForm: "user-agent"] == ["mine/1.0"])
        #expect(headers.first(name: ":scheme") == "https")
        #expect(headers.first(name: "grpc-encoding") == nil)
    }

    @Test func metadataTheTransportOwnsOrThatCouldSplitAHeaderIsRefused() throws {
        let refused: [(String, GRPCMetadata.Value, String)] = [
            ("content-type", .text("text/plain"), "the gRPC transport sets this header itself"),
            ("te", .text("gzip"), "the gRPC transport sets this header itself"),
            ("connection", .text("close"), "the gRPC transport sets this header itself"),
            ("x-bad", .text("one\r\nx-injected: 1"), "the value holds a control character"),
            ("x-id-bin", .text("abc"), "a name ending in -bin takes a binary value"),
            ("X Space", .text("v"), "a metadata name has only a–z, 0–9, '-', '_' and '.'"),
        ]
        for (name, value, reason) in refused {
            let metadata = GRPCMetadata([GRPCMetadata.Entry(name: name, value: value)])
            #expect(throws: GRPCMetadataError(name: name.lowercased(), reason: reason)) { _ = try metadata.validatedForRequest() }
        }
        let fine = GRPCMetadata([GRPCMetadata.Entry(name: "Authorization", value: .text("Bearer\tx"))])
        #expect(try fine.validatedForRequest().entries.first?.name == "authorization")
    }

    @Test func binaryValuesAreBase64PaddedOrNot() throws {
        var padded = GRPCMetadata()
        try padded.appendWire(name: "x-a-bin", value: "AQID")
        try padded.appendWire(name: "x-b-bin", value: "AQ==")
        try padded.appendWire(name: "x-c-bin", value: "AQ")
        #expect(padded.binaryValues("x-a-bin") == [[1, 2, 3]])
        #expect(padded.binaryValues("x-b-bin") == [[1]])
        #expect(padded.binaryValues("x-c-bin") == [[1]])
        var broken = GRPCMetadata()
        #expect(throws: GRPCMetadataError(name: "x-d-bin", reason: "its value is not base64")) { try broken.appendWire(name: "x-d-bin", value: "@@@") }
    }

    @Test func aGRPCResponseHeadGivesItsMetadataAndEncoding() {
        let head = GRPCHeaders.responseHead(
            HPACKHeaders([(":status", "200"), ("content-type", "application/grpc+proto"), ("grpc-encoding", "gzip"), ("x-id", "7")]), endStream: false,
            authority: "h:1")
        guard case .accepted(let metadata, let encoding) = head else {
            Issue.record("not accepted: \(head)")
            return
        }
        #expect(metadata["x-id"] == "7")
        #expect(metadata["content-type"] == "application/grpc+proto")
        #expect(encoding == "gzip")
    }

    @Test func anHTTPErrorBecomesTheStatusGRPCsTableGives() {
        let table: [(Int, GRPCStatusCode)] = [
            (400, .internalError), (401, .unauthenticated), (403, .permissionDenied), (404, .unimplemented), (429, .unavailable),
            (502, .unavailable), (503, .unavailable), (504, .unavailable), (500, .unknown), (418, .unknown),
        ]
        for (http, code) in table {
            let head = GRPCHeaders.responseHead(HPACKHeaders([(":status", String(http)), ("content-type", "text/html")]), endStream: false, authority: "h:1")
            guard case .ended(let status, _) = head else {
                Issue.record("HTTP \(http) was accepted")
                continue
            }
            #expect(status.code == code, "HTTP \(http)")
            #expect(status.message == "h:1 answered HTTP \(http) (content-type text/html) instead of a gRPC response: is it a gRPC server, and is the method's path right?")
        }
    }

    @Test func aNonGRPCContentTypeIsNotAGRPCServer() {
        let head = GRPCHeaders.responseHead(HPACKHeaders([(":status", "200"), ("content-type", "text/plain")]), endStream: false, authority: "h:1")
        guard case .ended(let status, _) = head else {
            Issue.record("accepted")
            return
        }
        #expect(status.code == .unknown)
        #expect(status.message == "h:1 answered with content-type text/plain, not application/grpc: it is not a gRPC server, or not for this method.")
    }

    @Test func trailersOnlyEndTheCallWithTheirStatus() {
        let head = GRPCHeaders.responseHead(
            HPACKHeaders([(":status", "200"), ("content-type", "application/grpc"), ("grpc-status", "5"), ("grpc-message", "no%20feature%20%E2%9C%93"), ("x-t", "1")]),
            endStream: true, authority: "h:1")
        guard case .ended(let status, let metadata) = head else {
            Issue.record("accepted")
            return
        }
        #expect(status == GRPCStatus(code: .notFound, message: "no feature ✓"))
        #expect(metadata["x-t"] == "1")
        #expect(metadata["grpc-status"] == nil)
    }

    @Test func trailersWithoutAStatusOrWithAStrangeOneSaySo() {
        let missing = GRPCHeaders.trailers(HPACKHeaders([("x-a", "1")]), authority: "h:1").0
        #expect(missing == GRPCStatus(code: .internalError, message: "h:1 ended the call without a grpc-status."))
        let word = GRPCHeaders.trailers(HPACKHeaders([("grpc-status", "five")]), authority: "h:1").0
        #expect(word == GRPCStatus(code: .unknown, message: "h:1 sent grpc-status 'five', which is not a status code."))
        let outside = GRPCHeaders.trailers(HPACKHeaders([("grpc-status", "99"), ("grpc-message", "odd")]), authority: "h:1").0
        #expect(outside == GRPCStatus(code: .unknown, message: "grpc-status 99 (not a gRPC code): odd"))
    }

    @Test func grpcMessageIsPercentEncodedAndAMalformedOneKeptAsItCame() {
        #expect(GRPCMessageText.encode("50% done: ✓\n") == "50%25 done: %E2%9C%93%0A")
        #expect(GRPCMessageText.decode("50%25 done: %E2%9C%93%0A") == "50% done: ✓\n")
        #expect(GRPCMessageText.decode("100%") == "100%")
        #expect(GRPCMessageText.decode("bad %ZZ escape") == "bad %ZZ escape")
    }

    @Test func aServerChecksMethodContentTypePathAndEncoding() {
        func head(_ fields: [(String, String)]) -> GRPCHeaders.RequestHead {
            GRPCHeaders.requestHead(HPACKHeaders([(":method", "POST"), (":path", "/a.B/C"), ("content-type", "application/grpc")].filter { field in
                !fields.contains { $0.0 == field.0 }
            } + fields))
        }
        guard case .accepted(let service, let method, let metadata, nil) = head([("x-k", "v"), ("te", "trailers")]) else {
            Issue.record("refused")
            return
        }
        #expect(service == "a.B" && method == "C")
        #expect(metadata["x-k"] == "v" && metadata["te"] == nil)
        #expect(head([(":method", "GET")]) == .refused(httpStatus: 405, GRPCStatus(code: .internalError, message: "gRPC calls are POST requests.")))
        #expect(head([("content-type", "application/json")])
            == .refused(httpStatus: 415, GRPCStatus(code: .internalError, message: "content-type application/json is not application/grpc.")))
        #expect(head([(":path", "/nothing")]) == .refused(httpStatus: 200, GRPCStatus(code: .unimplemented, message: "'/nothing' is not a /service/method path.")))
        #expect(head([("grpc-encoding", "snappy")])
            == .refused(httpStatus: 200, GRPCStatus(code: .unimplemented, message: "grpc-encoding 'snappy' is not supported (identity,gzip).")))
    }

    @Test func aServersAnswerHeadersAndTrailersCarryStatusAndMetadata() {
        var metadata = GRPCMetadata()
        metadata.append("x-t", "1")
        metadata.append("content-type", "text/evil")
        metadata.append(":status", "500")
        #expect(Self.fields(GRPCHeaders.responseHeaders(metadata: metadata)) == [
            ":status: 200", "content-type: application/grpc", "grpc-accept-encoding: identity,gzip", "x-t: 1",
        ])
        let trailers = GRPCHeaders.trailers(status: GRPCStatus(code: .notFound, message: "gone ✓"), metadata: metadata, trailersOnly: false)
        #expect(Self.fields(trailers) == ["grpc-status: 5", "grpc-message: gone %E2%9C%93", "x-t: 1"])
        let only = GRPCHeaders.trailers(status: GRPCStatus(code: .ok), metadata: GRPCMetadata(), trailersOnly: true)
        #expect(Self.fields(only) == [":status: 200", "content-type: application/grpc", "grpc-status: 0"])
    }

    @Test func statusCodesReadTheirNamesAndNumbers() {
        #expect(GRPCStatusCode(name: "NOT_FOUND") == .notFound)
        #expect(GRPCStatusCode(name: "not-found") == .notFound)
        #expect(GRPCStatusCode(name: "14") == .unavailable)
        #expect(GRPCStatusCode(name: "NOPE") == nil)
        #expect(GRPCStatusCode(wireValue: 42) == .unknown)
        #expect(GRPCStatusCode.allCases.map(\.rawValue) == Array(0...16))
        #expect(GRPCStatusCode.internalError.description == "INTERNAL (13)")
    }
}
