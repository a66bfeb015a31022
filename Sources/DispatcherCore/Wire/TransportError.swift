/// A failure below HTTP: the request got no (complete) response. Codes follow URLError's names,
/// so catalogs and handlers can name them (`networkError: notConnectedToInternet`).
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        case notConnectedToInternet
        case timedOut
        case cannotConnectToHost
        case cannotFindHost
        case networkConnectionLost
        case secureConnectionFailed
        case serverCertificateUntrusted
        case pinningFailed
        case cancelled
        case bodyTooLarge
        case badServerResponse
        case tooManyRedirects
        case cannotDecodeContentData
        case resourceUnavailable
        case unknown
    }

    /// The failure's code.
    public var code: Code
    /// What happened, in words.
    public var message: String
    /// Which timeout fired, for `timedOut`.
    public var timeoutPhase: TimeoutPhase?
    /// The pins the server presented, for `pinningFailed` (leaf first).
    public var presentedPins: [String]
    /// What arrived before the failure (status, headers, partial body), if anything.
    public var partialResponse: Response?
    /// Where the time went before the failure (the phases reached), when the request went out.
    public var transfer: TransferTiming?

    /// Makes a transport error; the message defaults to a sentence for the code.
    public init(
        _ code: Code, message: String? = nil, timeoutPhase: TimeoutPhase? = nil,
        presentedPins: [String] = [], partialResponse: Response? = nil
    ) {
        self.code = code
        self.message = message ?? TransportError.defaultMessage(for: code, phase: timeoutPhase)
        self.timeoutPhase = timeoutPhase
        self.presentedPins = presentedPins
        self.partialResponse = partialResponse
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A sentence for a code.
    public static func defaultMessage(for code: Code, phase: TimeoutPhase? = nil) -> String {
        switch code {
        case .notConnectedToInternet: "There is no network connection."
        case .timedOut:
            switch phase {
            case .connect: "The connection could not be opened in time (connect timeout)."
            case .read: "The server stopped sending before the response was complete (read timeout)."
            case .total: "The request took longer than its total deadline."
            case .connectionWait: "No connection to the server became free in time: every one was busy with other requests."
            case nil: "The request timed out."
            }
        case .cannotConnectToHost: "Could not connect to the server."
        case .cannotFindHost: "The server's host name could not be resolved."
        case .networkConnectionLost: "The connection was lost before the response was complete."
        case .secureConnectionFailed: "The TLS handshake failed."
        case .serverCertificateUntrusted: "The server's certificate is not trusted."
        case .pinningFailed: "The server's public key matches none of the pins."
        case .cancelled: "The request was cancelled."
        case .bodyTooLarge: "The response body is larger than the limit."
        case .badServerResponse: "The server sent a response that is not valid HTTP."
        case .tooManyRedirects: "The request was redirected too many times."
        case .cannotDecodeContentData: "The response body could not be decompressed."
        case .resourceUnavailable: "The response is not in the cache and loading is not allowed."
        case .unknown: "The request failed."
        }
    }
}
