import FoundationEssentials
import Logging
import TextSupport

/// Logs requests and responses, with secrets redacted by default (unlike Moya's logger, which
/// prints `Authorization` in clear).
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
    }

    /// What is logged.
    public var options: Options
    /// How secrets are masked; `nil` logs everything in clear (only when the user asked to reveal).
    public var redactor: Redactor?
    /// Bodies longer than this are cut, with a note of the full size.
    public var maximumBodyLength: Int
    /// Where lines go.
    public var output: @Sendable (_ line: String, _ request: Request) -> Void

    /// Makes a logger that hands lines to `output`.
    public init(
        options: Options = .standard, redactor: Redactor? = .standard, maximumBodyLength: Int = 4096,
        output: @escaping @Sendable (_ line: String, _ request: Request) -> Void
    ) {
        self.options = options
        self.redactor = redactor
        self.maximumBodyLength = maximumBodyLength
        self.output = output
    }

    /// Makes a logger that writes to a swift-log `Logger` at info level.
    public init(options: Options = .standard, redactor: Redactor? = .standard, logger: Logger) {
        self.init(options: options, redactor: redactor) { line, request in
            logger.info("\(line)", metadata: ["request": "\(request.id)"])
        }
    }

    public func willSend(_ request: Request, target: any TargetType) {
        if options.contains(.requestLine) {
            let attempt = request.attempt > 1 ? " (attempt \(request.attempt))" : ""
            output("→ \(request.method.rawValue) \(shownURL(request.url))\(attempt)", request)
        }
        if options.contains(.requestHeaders) {
            for field in request.headers { output("  \(field.name): \(shownHeader(field.name, field.value))", request) }
        }
        if options.contains(.requestBody), let body = request.body, !body.isEmpty {
            output("  " + shownBody(body, contentType: request.headers["Content-Type"]), request)
        }
    }

    public func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {
        let response: Response?
        switch result {
        case .success(let success): response = success
        case .failure(let error): response = error.response
        }
        if let response {
            if options.contains(.responseStatus) {
                let time = Int((response.timing.total.seconds * 1000).rounded())
                let source = response.source == .network ? "" : ", \(response.source)"
                output("← \(response.statusLine) in \(time) ms, \(ByteCount.format(response.body.count))\(source)", request)
            }
            if options.contains(.responseHeaders) {
                for field in response.headers { output("  \(field.name): \(shownHeader(field.name, field.value))", request) }
            }
            if options.contains(.responseBody), !response.body.isEmpty {
                output("  " + shownBody(response.body, contentType: response.headers["Content-Type"]), request)
            }
        }
        if options.contains(.errors), case .failure(let error) = result {
            output("✗ \(error.kind): \(redactor?.text(error.message) ?? error.message)", request)
        }
    }

    private func shownURL(_ url: URL) -> String { redactor?.url(url) ?? url.absoluteString }

    private func shownHeader(_ name: String, _ value: String) -> String {
        redactor?.header(name: name, value: value) ?? value
    }

    private func shownBody(_ data: Data, contentType: String?) -> String {
        let text = redactor?.body(data, contentType: contentType) ?? String(decoding: data, as: UTF8.self)
        guard text.count > maximumBodyLength else { return text }
        return String(text.prefix(maximumBodyLength)) + "… (\(ByteCount.format(data.count)) in all)"
    }
}

/// Sizes for people: `512 B`, `1.2 kB`, `3.4 MB`.
public enum ByteCount {
    /// Formats a byte count with decimal units.
    public static func format(_ bytes: Int) -> String {
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
}
