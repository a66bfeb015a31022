import AsyncHTTPClient
import DispatcherCore
import Foundation

/// A test-only live transport over AsyncHTTPClient, for round trips through the mock server (the
/// app's live transport is LiveTransport). Honours the read timeout (as a deadline) and the body
/// size limit, and maps client errors to transport errors.
package struct TestHTTPTransport: Transport {
    package init() {}

    package func send(_ request: Request) async throws(TransportError) -> Response {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .init(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(body) }
        let timeout = request.settings.timeouts.read ?? .seconds(30)
        do {
            let response = try await HTTPClient.shared.execute(outgoing, timeout: .nanoseconds(Int64(timeout.seconds * 1e9)))
            let limit = request.settings.maximumBodySize
            if let declared = response.headers.first(name: "Content-Length").flatMap(Int.init), declared > limit {
                throw TransportError(.bodyTooLarge)
            }
            let buffer = try await response.body.collect(upTo: limit)
            var headers = Headers()
            for (name, value) in response.headers { headers.add(name, value, origin: .server) }
            return Response(status: Int(response.status.code), headers: headers, body: Data(buffer.readableBytesView), url: request.url)
        } catch let error as TransportError {
            throw error
        } catch {
            throw TestHTTPTransport.map(error)
        }
    }

    package static func map(_ error: any Error) -> TransportError {
        let text = String(describing: error)
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return TransportError(.timedOut, message: text)
            case .remoteConnectionClosed: return TransportError(.networkConnectionLost, message: text)
            case .redirectLimitReached, .redirectCycleDetected: return TransportError(.tooManyRedirects, message: text)
            case .cancelled: return TransportError(.cancelled, message: text)
            default: break
            }
        }
        if text.contains("TooManyBytes") { return TransportError(.bodyTooLarge, message: text) }
        if text.contains("invalidEOFState") || text.contains("stream ended at an unexpected time") { return TransportError(.networkConnectionLost, message: text) }
        if text.contains("connectionRefused") || text.contains("Connection refused") { return TransportError(.cannotConnectToHost, message: text) }
        return TransportError(.unknown, message: text)
    }
}
