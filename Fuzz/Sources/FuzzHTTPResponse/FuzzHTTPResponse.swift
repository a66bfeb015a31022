import Dispatch
@testable import DispatcherCore
import FoundationEssentials
import FuzzDriver
import Glibc
@testable import LiveTransport

@_cdecl("FuzzHTTPResponse_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A server on 127.0.0.1 that answers each connection with the current input's bytes, then closes.
final class RawServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    /// The next answer; written before a request is sent, read by the accepting thread.
    nonisolated(unsafe) static var answer = Data()

    init() {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        listen(socket, 16)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        let listening = socket
        DispatchQueue.global().async {
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                _ = read(connection, &buffer, buffer.count)  // the request head
                let answer = RawServer.answer
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }
    }
}

let server = RawServer()
let transport = HTTPTransport()
let environment = Environment(
    name: "fuzz", baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, cachePolicy: .reloadIgnoringCache, fixtures: .never,
    timeouts: Timeouts(connect: .seconds(2), read: .seconds(2), total: .seconds(4)), retry: nil, maximumBodySize: 1 << 20)

/// Whatever a server sends back (head, chunked or not, gzip or not): parsed, decompressed,
/// collected up to the cap and mapped to an error, never a crash.
func exercise(_ data: Data) {
    RawServer.answer = data
    let request = Request(
        identifier: "fuzz", method: .get, url: URL(string: "http://127.0.0.1:\(server.port)/x")!,
        settings: TransportSettings(environment: environment))
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = try? await transport.send(request)
        done.signal()
    }
    done.wait()
}
