import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted TCP connection of a test server, and the means to end it on purpose.
final class TestConnection: Sendable {
    /// 1-based accept order.
    let id: Int
    /// The TCP channel (the parent of any HTTP/2 stream channels).
    let channel: Channel
    private let peerCertificate = Mutex<NIOSSLCertificate?>(nil)

    init(id: Int, channel: Channel) {
        self.id = id
        self.channel = channel
    }

    /// The certificate the client presented in the TLS handshake, once it completed.
    var clientCertificate: NIOSSLCertificate? {
        get { peerCertificate.withLock { $0 } }
        set { peerCertificate.withLock { $0 = newValue } }
    }

    /// Ends the connection: `.close` goes through the pipeline (TLS close_notify, then FIN);
    /// `.reset` sets SO_LINGER 0 and closes below TLS, so the peer gets an RST.
    func end(_ ending: TestResponse.ConnectionEnding) {
        switch ending {
        case .close: channel.close(promise: nil)
        case .reset: closeBelowTLS(reset: true)
        case .stall: break
        }
    }

    /// Closes at once, below TLS (no close_notify, no waiting for the peer): for shutdown.
    func abort() {
        closeBelowTLS(reset: false)
    }

    private func closeBelowTLS(reset: Bool) {
        let channel = self.channel
        channel.eventLoop.execute {
            if reset, let socket = channel as? SocketOptionProvider {
                // On the event loop the option is applied synchronously, before the close below.
                _ = socket.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            }
            // A close issued from the first handler's context skips every handler, NIOSSL included.
            if let head = try? channel.pipeline.syncOperations.context(handlerType: ConnectionHeadHandler.self) {
                head.close(promise: nil)
            } else {
                channel.close(promise: nil)
            }
        }
    }
}

/// Sits first in every connection pipeline so `TestConnection` can close beneath TLS.
final class ConnectionHeadHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
}
