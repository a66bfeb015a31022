import DispatcherCore
import Foundation
import GRPCCalls
import GRPCTransport
import GRPCWire
import Testing

import TestSupport
import TestTraits

/// TLS with an HTTP environment's settings: its CA, pins, client certificate and minimum
/// version; and connecting to the wrong kind of port either way.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-tools, grpcio-reflection, grpcio-status"))
struct TLSCallTests {
    static func pin(_ identity: TestCertificates.Identity) throws -> PublicKeyPin {
        try PublicKeyPin("sha256/" + identity.opensslSPKIPin())
    }

    static func echo(port: Int, trust: ServerTrust?) async throws -> GRPCCallResult {
        try await Probe.withConnection(port: port, tls: trust) { connection in
            try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest("over TLS")]))
        }
    }

    @Test func aCallOverTLSTrustingTheEnvironmentsCA() async throws {
        let server = try await PythonGRPCServer.shared(.init(tls: true))
        let result = try await Self.echo(port: server.port, trust: Probe.caTrust)
        #expect(result.succeeded, "\(result.status)")
        #expect(Probe.reply(result).text(1) == "over TLS")
    }

    @Test func theSystemRootsDoNotTrustThePrivateCA() async throws {
        let server = try await PythonGRPCServer.shared(.init(tls: true))
        let result = try await Self.echo(port: server.port, trust: ServerTrust())
        #expect(result.transportError?.code == .serverCertificateUntrusted)
        #expect(result.status.code == .unavailable)
        #expect(result.dispatchError?.kind == .tlsFailure)
    }

    @Test func pinsAreCheckedBeforeTheCallsHeadersGoOut() async throws {
        let server = try await PythonGRPCServer.shared(.init(tls: true))
        var trust = Probe.caTrust
        trust.pins = [try Self.pin(TestCertificates.server)]
        #expect(try await Self.echo(port: server.port, trust: trust).succeeded)
        trust.pins = [try Self.pin(TestCertificates.otherServer)]
        let refused = try await Self.echo(port: server.port, trust: trust)
        #expect(refused.transportError?.code == .pinningFailed)
        #expect(refused.dispatchError?.kind == .pinningFailed)
        #expect(refused.status.message.hasPrefix("The server's public key does not match the catalog's pins."))
    }

    @Test func pinsOnAPlaintextConnectionAreRefusedBeforeConnecting() async throws {
        let server = try await PythonGRPCServer.shared()
        var trust = ServerTrust()
        trust.pins = [try Self.pin(TestCertificates.server)]
        let target = try GRPCTarget(address: "grpc://127.0.0.1:\(server.port)", trust: trust)
        #expect(!target.secure)
        let connection = try GRPCConnection(target: target)
        let result = try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest()]))
        await connection.close()
        #expect(result.transportError?.code == .pinningFailed)
        #expect(result.status.message.hasSuffix("Use https:// for a pinned environment."))
    }

    @Test func mutualTLSNeedsTheClientCertificate() async throws {
        let server = try await PythonGRPCServer.shared(.init(tls: true, clientCertificates: true))
        let without = try await Self.echo(port: server.port, trust: Probe.caTrust)
        #expect(!without.succeeded)
        #expect(without.transportError != nil, "\(without.status)")
        var trust = Probe.caTrust
        trust.clientCertificate = ClientCertificate(certificate: TestCertificates.client.certificateURL, privateKey: TestCertificates.client.privateKeyURL)
        let with = try await Self.echo(port: server.port, trust: trust)
        #expect(with.succeeded, "\(with.status)")
    }

    @Test func aMissingCAFileIsAnErrorBeforeAnyCall() throws {
        let trust = ServerTrust(certificateAuthority: URL(fileURLWithPath: "/nonexistent/ca.pem"))
        #expect(throws: TransportError(.secureConnectionFailed, message: "The CA file /nonexistent/ca.pem does not exist or cannot be read.")) {
            _ = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: 1, secure: true, trust: trust))
        }
    }

    @Test func plaintextToATLSPortSaysTheServerSpeaksSomethingElse() async throws {
        let server = try await PythonGRPCServer.shared(.init(tls: true))
        let result = try await Self.echo(port: server.port, trust: nil)
        #expect(!result.succeeded)
        #expect(result.transportError != nil, "\(result.status)")
        #expect(result.status.message.contains("127.0.0.1:\(server.port)"), "\(result.status)")
    }

    @Test func tlsToAPlaintextPortSaysItDoesNotSpeakTLS() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Self.echo(port: server.port, trust: Probe.caTrust)
        #expect(result.transportError?.code == .secureConnectionFailed, "\(result.status)")
        #expect(result.dispatchError?.kind == .tlsFailure)
    }

    @Test func aRefusedConnectionCannotConnect() async throws {
        let result = try await Self.echo(port: try TestPorts.closedPort(), trust: nil)
        #expect(result.transportError?.code == .cannotConnectToHost)
        #expect(result.transportError?.message == "Could not connect to 127.0.0.1:\(try TestPorts.closedPort()): connection refused.")
        #expect(result.dispatchError?.kind == .cannotConnect)
    }
}
