import CryptoSupport
import DispatcherCore
import NIOCore
import NIOSSL

/// Checks each new connection's leaf certificate against an environment's SPKI pins, after the TLS
/// handshake and before the connection carries a request (AsyncHTTPClient's connection
/// initializers run exactly there). Only the leaf is checked, as curl's `--pinnedpubkey` does:
/// NIOSSL does not expose the rest of the peer's chain.
package struct PinVerifier: Sendable {
    /// The pins a leaf must match (any one of them).
    let pins: [PublicKeyPin]

    package init(pins: [PublicKeyPin]) {
        self.pins = pins
    }

    /// The initializer AsyncHTTPClient runs on every new HTTP/1.1 or HTTP/2 connection.
    var connectionInitializer: @Sendable (Channel) -> EventLoopFuture<Void> {
        let verifier = self
        return { channel in
            let result = channel.eventLoop.inEventLoop
                ? channel.eventLoop.makeCompletedFuture { try verifier.check(channel) }
                : channel.eventLoop.submit { try verifier.check(channel) }
            return result.flatMapErrorThrowing { error in
                // AsyncHTTPClient drops a connection whose initializer failed but does not close it;
                // close it once the pool has seen the failure, so nothing is ever sent on it.
                channel.eventLoop.execute { channel.close(promise: nil) }
                throw error
            }
        }
    }

    /// Throws `PinMismatch` unless the connection's leaf key matches a pin. Runs on the channel's event loop.
    package func check(_ channel: Channel) throws {
        guard let handler = try? channel.pipeline.syncOperations.handler(type: NIOSSLHandler.self) else {
            throw PinMismatch(presented: [], expected: pins, encrypted: false)
        }
        guard let leaf = handler.peerCertificate else { throw PinMismatch(presented: [], expected: pins, encrypted: true) }
        let presented = try PinVerifier.pin(of: leaf)
        guard pins.contains(presented) else { throw PinMismatch(presented: [presented], expected: pins, encrypted: true) }
    }

    /// The pin of a certificate: SHA-256 over its DER SubjectPublicKeyInfo.
    static func pin(of certificate: NIOSSLCertificate) throws -> PublicKeyPin {
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        return PublicKeyPin(digest: HashFunction.sha256.hash(spki))
    }
}

/// A connection whose server key matched none of the pins.
package struct PinMismatch: Error, Sendable {
    /// What the server presented (leaf first); empty when it presented nothing to check.
    let presented: [PublicKeyPin]
    /// The environment's pins.
    let expected: [PublicKeyPin]
    /// False when the connection had no TLS at all (an `http://` URL in a pinned environment).
    let encrypted: Bool

    package init(presented: [PublicKeyPin], expected: [PublicKeyPin], encrypted: Bool) {
        self.presented = presented
        self.expected = expected
        self.encrypted = encrypted
    }

    /// The error the caller sees, naming the pin to put in the catalog.
    package func transportError(host: String) -> TransportError {
        let catalog = expected.map(\.description).joined(separator: ", ")
        let message: String
        if !encrypted {
            message = "The connection to \(host) is not encrypted, so its public key cannot be checked; "
                + "the catalog pins \(catalog). Use https:// for a pinned environment."
        } else if let shown = presented.first {
            message = "The server's public key does not match the catalog's pins. It presented \(shown); the catalog pins \(catalog)."
        } else {
            message = "\(host) presented no certificate, so its public key cannot be checked against the catalog's pins (\(catalog))."
        }
        return TransportError(.pinningFailed, message: message, presentedPins: presented.map(\.description))
    }
}
