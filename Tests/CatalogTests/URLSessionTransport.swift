import DispatcherCore
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test-only live transport over URLSession, for round trips through the mock server (the app's
/// live transport is LiveTransport). Honours the read timeout and the body size limit, and maps
/// URLError codes to transport errors.
final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate = Delegate()

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    func send(_ request: Request) async throws(TransportError) -> Response {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = request.settings.timeouts.read.map { $0.seconds } ?? 60
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        let result: Result<Response, TransportError> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: urlRequest)
            delegate.register(task, limit: request.settings.maximumBodySize, continuation: continuation)
            task.resume()
        }
        return try result.get()
    }

    /// Collects each task's bytes and completes its continuation once.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        struct Pending {
            var limit: Int
            var data = Data()
            var response: HTTPURLResponse?
            var tooLarge = false
            var continuation: CheckedContinuation<Result<Response, TransportError>, Never>
        }

        private let pending = Mutex<[Int: Pending]>([:])

        func register(_ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<Result<Response, TransportError>, Never>) {
            pending.withLock { $0[task.taskIdentifier] = Pending(limit: limit, continuation: continuation) }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let tooLarge = pending.withLock { pending -> Bool in
                pending[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
                guard let limit = pending[dataTask.taskIdentifier]?.limit, response.expectedContentLength > Int64(limit) else { return false }
                pending[dataTask.taskIdentifier]?.tooLarge = true
                return true
            }
            completionHandler(tooLarge ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let cancel = pending.withLock { pending -> Bool in
                guard var entry = pending[dataTask.taskIdentifier] else { return false }
                entry.data.append(data)
                entry.tooLarge = entry.data.count > entry.limit
                pending[dataTask.taskIdentifier] = entry
                return entry.tooLarge
            }
            if cancel { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if entry.tooLarge {
                entry.continuation.resume(returning: .failure(TransportError(.bodyTooLarge)))
                return
            }
            if let error {
                entry.continuation.resume(returning: .failure(Self.map(error)))
                return
            }
            guard let http = entry.response else {
                entry.continuation.resume(returning: .failure(TransportError(.badServerResponse)))
                return
            }
            var headers = Headers()
            for (name, value) in http.allHeaderFields {
                headers.add(String(describing: name), String(describing: value), origin: .server)
            }
            entry.continuation.resume(returning: .success(Response(status: http.statusCode, headers: headers, body: entry.data, url: http.url)))
        }

        static func map(_ error: any Error) -> TransportError {
            guard let error = error as? URLError else { return TransportError(.unknown, message: "\(error)") }
            let code: TransportError.Code = switch error.code {
            case .timedOut: .timedOut
            case .networkConnectionLost: .networkConnectionLost
            case .cannotConnectToHost: .cannotConnectToHost
            case .notConnectedToInternet: .notConnectedToInternet
            case .badServerResponse, .zeroByteResource: .badServerResponse
            case .cannotDecodeContentData, .cannotDecodeRawData: .cannotDecodeContentData
            case .httpTooManyRedirects, .redirectToNonExistentLocation: .tooManyRedirects
            case .cancelled: .cancelled
            default: .unknown
            }
            return TransportError(code, message: "\(error.code.rawValue): \(error.localizedDescription)")
        }
    }
}
