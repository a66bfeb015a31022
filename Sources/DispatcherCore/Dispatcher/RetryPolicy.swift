import FoundationEssentials
import TextSupport

/// When and how soon a failed request is tried again.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt (2 means at most 3 attempts).
    public var limit: Int
    /// Wait before the first retry.
    public var initialBackoff: Duration
    /// Each further wait is the previous one times this.
    public var multiplier: Double
    /// No wait is longer than this.
    public var maximumBackoff: Duration
    /// Methods that may be retried (idempotent ones by default).
    public var methods: Set<HTTPMethod>
    /// Statuses that are retried.
    public var statuses: Set<Int>
    /// Transport failures that are retried.
    public var transportCodes: Set<TransportError.Code>
    /// Wait as long as `Retry-After` says (up to `maximumRetryAfter`) instead of the backoff.
    public var honoursRetryAfter: Bool
    /// A longer `Retry-After` is not waited for: the error is returned at once.
    public var maximumRetryAfter: Duration

    /// Makes a retry policy.
    public init(
        limit: Int = 2, initialBackoff: Duration = .milliseconds(500), multiplier: Double = 2,
        maximumBackoff: Duration = .seconds(30),
        methods: Set<HTTPMethod> = Set(HTTPMethod.allCases.filter(\.isIdempotent)),
        statuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        transportCodes: Set<TransportError.Code> = [.timedOut, .networkConnectionLost],
        honoursRetryAfter: Bool = true, maximumRetryAfter: Duration = .seconds(60)
    ) {
        self.limit = limit
        self.initialBackoff = initialBackoff
        self.multiplier = multiplier
        self.maximumBackoff = maximumBackoff
        self.methods = methods
        self.statuses = statuses
        self.transportCodes = transportCodes
        self.honoursRetryAfter = honoursRetryAfter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// The exponential backoff before retry number `retry` (1-based).
    public func backoff(beforeRetry retry: Int) -> Duration {
        let factor = (0..<max(0, retry - 1)).reduce(1.0) { product, _ in product * multiplier }
        let seconds = initialBackoff.seconds * factor
        return min(.seconds(seconds), maximumBackoff)
    }

    /// Whether `error` on `request` after `attempt` attempts is retried, and after how long.
    public func decision(for request: Request, error: DispatchError, attempt: Int) -> RetryDecision {
        // gRPC calls are all POSTs; an UNAVAILABLE one never ran, so it is retried like an idempotent request.
        guard attempt <= limit, methods.contains(request.method) || RPCStatus.isUnavailable(error) else { return .doNotRetry }
        let retryable: Bool
        if let transport = error.transportError {
            // Body bytes already handed on (printed as they came) cannot be taken back: no second copy.
            if (transport.partialResponse?.streamedByteCount ?? 0) > 0 { return .doNotRetry }
            // A transport failure is judged by its code, also when part of a response had arrived
            // (a connection lost mid-body keeps that part for display).
            retryable = transportCodes.contains(transport.code)
        } else if let status = error.status {
            retryable = statuses.contains(status)
        } else {
            retryable = false
        }
        guard retryable else { return .doNotRetry }
        if honoursRetryAfter, let retryAfter = error.retryAfter {
            return retryAfter <= maximumRetryAfter ? .retry(after: retryAfter) : .doNotRetry
        }
        return .retry(after: backoff(beforeRetry: attempt))
    }
}

/// Whether to try again.
public enum RetryDecision: Sendable, Hashable {
    /// Try again after the delay.
    case retry(after: Duration)
    /// Give up: the error stands.
    case doNotRetry
}

/// Reads `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
package enum RetryAfter {
    /// The wait the header asks for, relative to `now`; nil when it cannot be read.
    package static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmedSpaces
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        if let seconds = Double(trimmed), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let wait: Double = max(0, date.timeIntervalSince(now).rounded(.up))
        return .seconds(wait)
    }
}

/// The IMF-fixdate form of HTTP dates: `Sun, 06 Nov 1994 08:49:37 GMT`.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Reads an IMF-fixdate.
    package static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
            let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "GMT")
        components.year = year
        components.month = monthIndex + 1
        components.day = day
        components.hour = time[0]
        components.minute = time[1]
        components.second = time[2]
        return components.date
    }

    /// Writes an IMF-fixdate.
    package static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        func two(_ value: Int?) -> String { DecimalText.zeroPadded(value ?? 0, width: 2) }
        return "\(days[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }
}
