import FoundationEssentials
import Logging
import TextSupport

/// Logs requests and responses, with secrets redacted by default (unlike Moya's logger, which
/// prints `Authorization` in clear).
///
/// Nothing is formatted on the request path: each event reaches `output` as a `NetworkLogEntry`
/// whose `lines` are built (and redacted) only when someone reads them.
public struct NetworkLoggerPlugin: Plugin {
    /// What is logged.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `→ GET https://…`
        public static let requestLine = Options(rawValue: 1 << 0)
        /// Request headers.
        public static let requestHeaders = Options(rawValue: 1 << 1)
        /// Request body.
        public static let requestBody = Options(rawValue: 1 << 2)
        /// `← 200 OK in 12 ms, 1.2 kB`
        public static let responseStatus = Options(rawValue: 1 << 3)
        /// Response headers.
        public static let responseHeaders = Options(rawValue: 1 << 4)
        /// Response body.
        public static let responseBody = Options(rawValue: 1 << 5)
        /// Mapped errors.
        public static let errors = Options(rawValue: 1 << 6)

        /// Request line, request headers, status and errors.
        public static let standard: Options = [.requestLine, .requestHeaders, .responseStatus, .errors]
        /// Everything.
        public static let verbose: Options = [.requestLine, .requestHeaders, .requestBody, .responseStatus, .responseHeaders, .responseBody, .errors]

        /// What is logged before a request is sent.
        static let beforeSending: Options = [.requestLine, .requestHeaders, .requestBody]
        /// What is logged when an attempt ends.
        static let afterReceiving: Options = [.responseStatus, .responseHeaders, .responseBody, .errors]
    }

    /// What is logged.
    public var options: Options
    /// How secrets are masked; `nil` logs everything in clear (only when the user asked to reveal).
    public var redactor: Redactor?
    /// Bodies longer than this are cut, with a note of the full size.
    public var maximumBodyLength: Int
    /// Where entries go: one per request sent and one per attempt ended, unformatted.
    public var output: @Sendable (_ entry: NetworkLogEntry) -> Void

    /// Makes a logger that hands its entries to `output`, which formats them (`entry.lines`) only
    /// if and when it shows them.
    public init(
        options: Options = .standard, redactor: Redactor? = .standard, maximumBodyLength: Int = 4096,
        output: @escaping @Sendable (_ entry: NetworkLogEntry) -> Void
    ) {
        self.options = options
        self.redactor = redactor
        self.maximumBodyLength = maximumBodyLength
        self.output = output
    }

    /// Makes a logger that writes to a swift-log `Logger` at info level. Lines are formatted as they
    /// are logged when the logger's level lets info through, and not at all otherwise.
    public init(options: Options = .standard, redactor: Redactor? = .standard, logger: Logger) {
        self.init(options: options, redactor: redactor) { entry in
            guard logger.logLevel <= .info else { return }
            for line in entry.lines {
                logger.info("\(line)", metadata: ["request": "\(entry.request.id)"])
            }
        }
    }

    public func willSend(_ request: Request, target: any TargetType) {
        guard !options.isDisjoint(with: .beforeSending) else { return }
        output(NetworkLogEntry(event: .willSend, request: request, format: format))
    }

    public func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {
        guard !options.isDisjoint(with: .afterReceiving) else { return }
        output(NetworkLogEntry(event: .didReceive(result), request: request, format: format))
    }

    private var format: NetworkLogEntry.Format {
        NetworkLogEntry.Format(options: options, redactor: redactor, maximumBodyLength: maximumBodyLength)
    }
}

/// One event of the network logger, kept as it happened: `lines` formats and redacts it on demand,
/// so a log nobody reads costs nothing but this value.
public struct NetworkLogEntry: Sendable {
    /// What happened.
    public enum Event: Sendable {
        /// The request is about to be sent.
        case willSend
        /// The attempt ended with this result.
        case didReceive(Result<Response, DispatchError>)
    }

    /// How the logger that made an entry formats it.
    public struct Format: Sendable, Hashable {
        /// What is logged.
        public var options: NetworkLoggerPlugin.Options
        /// How secrets are masked; nil shows everything in clear.
        public var redactor: Redactor?
        /// Bodies longer than this are cut.
        public var maximumBodyLength: Int

        /// Makes a format.
        public init(options: NetworkLoggerPlugin.Options, redactor: Redactor?, maximumBodyLength: Int) {
            self.options = options
            self.redactor = redactor
            self.maximumBodyLength = maximumBodyLength
        }
    }

    /// What happened.
    public var event: Event
    /// The request as sent (after the interceptor and plugins).
    public var request: Request
    /// How it is formatted.
    public var format: Format

    /// Makes an entry.
    public init(event: Event, request: Request, format: Format) {
        self.event = event
        self.request = request
        self.format = format
    }

    /// The log lines, secrets masked by the format's redactor: `→ GET https://…` and the request
    /// headers before sending, `← 200 OK in 12 ms, 57 B` and errors after (as the options ask).
    public var lines: [String] {
        var lines: [String] = []
        switch event {
        case .willSend: appendRequestLines(to: &lines)
        case .didReceive(let result): appendResultLines(result, to: &lines)
        }
        return lines
    }

    private func appendRequestLines(to lines: inout [String]) {
        let options = format.options
        if options.contains(.requestLine) {
            let attempt = request.attempt > 1 ? " (attempt \(request.attempt))" : ""
            lines.append("→ \(request.method.rawValue) \(shownURL(request.url))\(attempt)")
        }
        if options.contains(.requestHeaders) {
            for field in request.headers { lines.append("  \(field.name): \(shownHeader(field.name, field.value))") }
        }
        if options.contains(.requestBody), let body = request.body, !body.isEmpty {
            lines.append("  " + shownBody(body, contentType: request.headers["Content-Type"]))
        } else if options.contains(.requestBody), let streamed = request.streamedBody {
            // Described, never read: a file may be gigabytes.
            lines.append("  " + (format.redactor?.text(streamed.summary) ?? streamed.summary))
        }
    }

    private func appendResultLines(_ result: Result<Response, DispatchError>, to lines: inout [String]) {
        let options = format.options
        let response: Response?
        switch result {
        case .success(let success): response = success
        case .failure(let error): response = error.response
        }
        if let response {
            if options.contains(.responseStatus) {
                let time = Int((response.timing.total.seconds * 1000).rounded())
                let source = response.source == .network ? "" : ", \(response.source)"
                lines.append("← \(response.statusLine) in \(time) ms, \(ByteCount.format(response.body.count))\(source)")
            }
            if options.contains(.responseHeaders) {
                for field in response.headers { lines.append("  \(field.name): \(shownHeader(field.name, field.value))") }
            }
            if options.contains(.responseBody), !response.body.isEmpty {
                lines.append("  " + shownBody(response.body, contentType: response.headers["Content-Type"]))
            }
        }
        if options.contains(.errors), case .failure(let error) = result {
            lines.append("✗ \(error.kind): \(format.redactor?.text(error.message) ?? error.message)")
        }
    }

    private func shownURL(_ url: URL) -> String { format.redactor?.url(url) ?? url.absoluteString }

    private func shownHeader(_ name: String, _ value: String) -> String {
        format.redactor?.header(name: name, value: value) ?? value
    }

    private func shownBody(_ data: Data, contentType: String?) -> String {
        let text = format.redactor?.body(data, contentType: contentType) ?? String(decoding: data, as: UTF8.self)
        guard text.count > format.maximumBodyLength else { return text }
        return String(text.prefix(format.maximumBodyLength)) + "… (\(ByteCount.format(data.count)) in all)"
    }
}

/// Sizes for people: `512 B`, `1.2 kB`, `3.4 MB`.
package enum ByteCount {
    /// Formats a byte count with decimal units.
    package static func format(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return DecimalText.fixed(value, digits: value < 10 ? 1 : 0) + " " + units[unit]
    }

    /// A size over a limit and the limit, as texts that differ: rounded as `format` does, or in
    /// exact bytes when rounding would make them read the same ("17 MB, more than the 17 MB").
    package static func format(_ size: Int, over limit: Int) -> (size: String, limit: String) {
        let rounded = (format(size), format(limit))
        guard rounded.0 == rounded.1 else { return rounded }
        return (exact(size), exact(limit))
    }

    /// `16,777,217 bytes`.
    package static func exact(_ bytes: Int) -> String {
        var digits = Array(String(bytes))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits) + (bytes == 1 ? " byte" : " bytes")
    }
}
