import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// Finds out *why* a server's certificate failed verification. BoringSSL only reports
/// `CERTIFICATE_VERIFY_FAILED`, so after such a failure (and only then) this opens one short probe
/// connection that does not verify, reads the leaf and tells: expired, not yet valid, self-signed,
/// or issued by an untrusted CA (named). The probe sends no HTTP.
enum CertificateDiagnosis {
    /// Why the certificate of `host:port` is not trusted, as a clause (`it expired on 2001-01-01`),
    /// or nil when the probes cannot tell.
    static func reason(host: String, port: Int, trust: ServerTrust, timeout: Duration, group: any EventLoopGroup) async -> String? {
        guard let leaf = try? await presentedLeaf(host: host, port: port, timeout: timeout, group: group) else { return nil }
        let now = time(nil)
        if leaf.notValidAfter < now { return "it expired on \(day(leaf.notValidAfter))" }
        if leaf.notValidBefore > now { return "it is not valid before \(day(leaf.notValidBefore))" }
        let names = (try? leaf.toDERBytes()).flatMap(CertificateNames.init(der:))
        if names?.isSelfIssued == true { return "it is self-signed" }
        let issuer = names?.issuerCommonName.map { "“\($0)”" }
        if let authority = trust.certificateAuthority {
            let file = authority.lastPathComponent
            return issuer.map { "it is issued by \($0), not by the environment's CA (\(file))" }
                ?? "it is not issued by the environment's CA (\(file))"
        }
        return "it is issued by \(issuer ?? "a certificate authority"), which the system does not trust "
            + "(set the environment's CA file for a private CA)"
    }

    /// Completes a TLS handshake without verifying anything and returns the server's leaf.
    private static func presentedLeaf(host: String, port: Int, timeout: Duration, group: any EventLoopGroup) async throws -> NIOSSLCertificate {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        let context = try NIOSSLContext(configuration: configuration)
        let serverName = IPAddress.bytes(of: host) == nil ? host : nil
        let eventLoop = group.next()
        let promise = eventLoop.makePromise(of: NIOSSLCertificate.self)
        let channel: Channel
        do {
            channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(.init(timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        try channel.pipeline.syncOperations.addHandler(LeafCatcher(promise: promise))
                    }
                }
                .connect(host: host, port: port)
                .get()
        } catch {
            promise.fail(error)  // a promise must never be dropped unfulfilled
            throw error
        }
        let timer = eventLoop.scheduleTask(in: .init(timeout)) { promise.fail(ChannelError.connectTimeout(.init(timeout))) }
        defer {
            timer.cancel()
            channel.close(promise: nil)
        }
        return try await promise.futureResult.get()
    }

    private static func day(_ time: time_t) -> String {
        Date(timeIntervalSince1970: TimeInterval(time)).formatted(Date.ISO8601FormatStyle().year().month().day())
    }
}

/// Hands the server's leaf to a promise when the handshake completes; fails it on any error.
private final class LeafCatcher: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<NIOSSLCertificate>

    init(promise: EventLoopPromise<NIOSSLCertificate>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self)
            if let leaf = handler?.peerCertificate {
                promise.succeed(leaf)
            } else {
                promise.fail(NIOSSLError.noCertificateToValidate)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}
