/// How a request is answered: by the network, or by its sample response at once or after a delay.
import TextSupport
public enum StubBehavior: Sendable, Hashable, CustomStringConvertible {
    /// Send it for real (live mode).
    case never
    /// Answer with the sample response at once.
    case immediate
    /// Answer with the sample response after the delay.
    case delayed(Duration)

    /// Whether the request is stubbed.
    public var isStubbed: Bool { self != .never }

    public var description: String {
        switch self {
        case .never: "never"
        case .immediate: "immediate"
        case .delayed(let delay): "delayed(\(delay.secondsText))"
        }
    }
}

extension Duration {
    /// Seconds as a short decimal text: `0.3`, `2`, `1.25`.
    package var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        if seconds.rounded() == seconds { return String(Int(seconds)) }
        var text = DecimalText.fixed(seconds, digits: 3)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Duration in seconds as a Double.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
