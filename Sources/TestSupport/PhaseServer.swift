import Foundation
import SystemSupport

/// A server that delays each phase of an exchange on purpose, for the transfer timing tests and
/// for `curl -w` beside them: it accepts late, holds the TLS handshake, sends the head late and
/// trickles the body, follows `/redirect/N` down to `/done`, and can drop the first request (a
/// retried attempt). Python's standard library (`socket`, `ssl`), a thread per connection,
/// keep-alive: the delays are the server's own sleeps, which never end early, so a test asserts
/// lower bounds and order, not windows.
package final class PhaseServer: Sendable {
    /// What the server delays, in milliseconds.
    package struct Delays: Sendable {
        package var accept = 0
        package var handshake = 0
        package var head = 0
        /// The body is sent in six pieces over this long, after the head.
        package var trickle = 0
        package var bodySize = 600
        /// The first request is read, then its connection closed without an answer.
        package var dropsFirstRequest = false

        package init(accept: Int = 0, handshake: Int = 0, head: Int = 0, trickle: Int = 0, bodySize: Int = 600, dropsFirstRequest: Bool = false) {
            self.accept = accept
            self.handshake = handshake
            self.head = head
            self.trickle = trickle
            self.bodySize = bodySize
            self.dropsFirstRequest = dropsFirstRequest
        }
    }

    /// The port it listens on (127.0.0.1).
    package let port: Int
    /// Whether it speaks TLS (with `TestCertificates.server`, for 127.0.0.1 and localhost).
    package let tls: Bool
    private let process: ChildProcess

    /// `http://127.0.0.1:PORT` or `https://…`.
    package var baseURL: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    /// Starts it; `tls` serves HTTPS with the test server certificate.
    package init(_ delays: Delays, tls: Bool = false) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("phase-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("phase_server.py")
        try Data(Self.script.utf8).write(to: script)
        var arguments = [
            script.path, "--accept-delay", "\(delays.accept)", "--handshake-delay", "\(delays.handshake)", "--head-delay", "\(delays.head)",
            "--trickle", "\(delays.trickle)", "--body-size", "\(delays.bodySize)",
        ]
        if delays.dropsFirstRequest { arguments.append("--drop-first") }
        if tls {
            arguments += ["--cert", TestCertificates.url(named: "server.pem").path, "--key", TestCertificates.url(named: "server-key.pem").path]
        }
        process = try ChildProcess("/usr/bin/env", ["python3"] + arguments, environment: ProcessInfo.processInfo.environment, output: .pipe, errors: .null)
        self.tls = tls
        // The first line it prints is its port.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while let output = process.output, read(output, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.kill()
            throw TestServerError.timedOut("waiting for the phase server to start (is python3 installed?)")
        }
        self.port = port
    }

    /// Stops it.
    package func stop() {
        process.kill()
        _ = process.wait()
        if let output = process.output { close(output) }
    }

    static let script = #"""
    # (Modules by name: the import checker reads Swift's `import` lines.)
    argparse, select, socket, ssl, threading, time = map(__import__, ["argparse", "select", "socket", "ssl", "threading", "time"])
    p = argparse.ArgumentParser()
    p.add_argument("--cert"); p.add_argument("--key")
    for name in ["--accept-delay", "--handshake-delay", "--head-delay", "--trickle"]:
        p.add_argument(name, type=float, default=0)
    p.add_argument("--body-size", type=int, default=600)
    p.add_argument("--drop-first", action="store_true")
    args = p.parse_args()
    context = None
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        context.set_alpn_protocols(["http/1.1"])
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    dropped = [False]
    lock = threading.Lock()

    def serve(connection):
        try:
            if context:
                time.sleep(args.handshake_delay / 1000)
                connection = context.wrap_socket(connection, server_side=True)
            pending = b""
            while True:
                while b"\r\n\r\n" not in pending:
                    data = connection.recv(65536)
                    if not data:
                        return
                    pending += data
                head, _, pending = pending.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                target = lines[0].split(" ")[1]
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                while len(pending) < length:
                    data = connection.recv(65536)
                    if not data:
                        return
                    pending += data
                pending = pending[length:]
                with lock:
                    drop = args.drop_first and not dropped[0]
                    dropped[0] = True
                if drop:
                    return
                if target.startswith("/redirect/"):
                    left = int(target.split("/")[2])
                    location = "/redirect/%d" % (left - 1) if left > 1 else "/done"
                    connection.sendall(("HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n" % location).encode())
                    continue
                time.sleep(args.head_delay / 1000)
                body = b"x" * args.body_size
                connection.sendall(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body)).encode())
                pieces = 6 if args.trickle > 0 else 1
                size = (len(body) + pieces - 1) // pieces
                for index in range(pieces):
                    if args.trickle > 0:
                        time.sleep(args.trickle / 1000 / pieces)
                    connection.sendall(body[index * size:(index + 1) * size])
        except Exception:
            pass
        finally:
            connection.close()

    while True:
        # Accepted late: the connection waits in the listen queue (the kernel has completed the
        # TCP handshake; the client's request or ClientHello waits unread).
        select.select([listener], [], [])
        time.sleep(args.accept_delay / 1000)
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#
}
