import DispatcherCore
import GRPCTransport
import Testing

@testable import GRPCCalls
import TestTraits

/// Where a server is and which method, as people write them (grpcurl's forms, and URLs).
@Suite(.offPool) struct AddressTests {
    @Test func hostAndPortIsTLSUnlessPlaintext() throws {
        let secure = try GRPCTarget(address: "api.example.com:443")
        #expect(secure.host == "api.example.com" && secure.port == 443 && secure.secure)
        let plain = try GRPCTarget(address: "localhost:50051", plaintext: true)
        #expect(plain.authority == "localhost:50051" && !plain.secure)
    }

    @Test func urlsSayPlaintextOrTLSThemselves() throws {
        #expect(try !GRPCTarget(address: "grpc://localhost:9000").secure)
        #expect(try !GRPCTarget(address: "http://localhost:9000/").secure)
        #expect(try GRPCTarget(address: "grpcs://localhost:9000", plaintext: true).secure)
        let https = try GRPCTarget(address: " https://api.example.com ")
        #expect(https.port == 443 && https.secure)
        #expect(try GRPCTarget(address: "http://example.com").port == 80)
    }

    @Test func ipv6AddressesKeepTheirBrackets() throws {
        let target = try GRPCTarget(address: "[::1]:50051", plaintext: true)
        #expect(target.host == "::1" && target.port == 50051)
        #expect(target.authority == "[::1]:50051")
    }

    @Test func theEnvironmentsTrustComesAlong() throws {
        let trust = ServerTrust(allowInsecure: true)
        #expect(try GRPCTarget(address: "h:1", trust: trust).trust == trust)
    }

    @Test func whatIsNotAnAddressSaysWhy() {
        let cases: [(String, String)] = [
            ("localhost", "'localhost' has no port: write HOST:PORT."),
            ("ftp://h:1", "'ftp://h:1': a gRPC address is HOST:PORT or a grpc://, grpcs://, http:// or https:// URL, not ftp://."),
            ("h:70000", "'h:70000': the port '70000' is not a number from 1 to 65535."),
            ("https://h:1/api", "'https://h:1/api': a gRPC address has no path (methods are named apart: SERVICE/METHOD)."),
            (":80", "':80' names no host."),
            ("[::1", "'[::1': an IPv6 address lacks its ']'."),
        ]
        for (text, message) in cases {
            #expect(throws: GRPCRequestError(message), "\(text)") { _ = try GRPCTarget(address: text) }
        }
    }

    @Test func methodsAreReadInGrpcurlsForms() throws {
        let expected = GRPCMethodPath(service: "routeguide.RouteGuide", method: "GetFeature")
        for text in ["routeguide.RouteGuide/GetFeature", "/routeguide.RouteGuide/GetFeature", "routeguide.RouteGuide.GetFeature"] {
            #expect(try GRPCMethodPath(parsing: text) == expected, "\(text)")
        }
        #expect(expected.path == "/routeguide.RouteGuide/GetFeature")
        for text in ["GetFeature", "a.B/", "/C", "a b/C", "a.B/C.D"] {
            #expect(throws: GRPCRequestError.self, "\(text)") { _ = try GRPCMethodPath(parsing: text) }
        }
    }

    @Test func kindsFollowWhichSidesStream() {
        #expect(GRPCCallKind(clientStreams: false, serverStreams: false) == .unary)
        #expect(GRPCCallKind(clientStreams: false, serverStreams: true) == .serverStreaming)
        #expect(GRPCCallKind(clientStreams: true, serverStreams: false) == .clientStreaming)
        #expect(GRPCCallKind(clientStreams: true, serverStreams: true) == .bidirectionalStreaming)
    }
}
