/// Which status codes count as success; any other status becomes an error.
public enum ValidationType: Sendable, Hashable {
    /// Every status is a success.
    case none
    /// 200–299.
    case successCodes
    /// 200–399.
    case successAndRedirectCodes
    /// Exactly these.
    case customCodes(Set<Int>)

    /// Whether `status` counts as success.
    public func accepts(_ status: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200..<300).contains(status)
        case .successAndRedirectCodes: (200..<400).contains(status)
        case .customCodes(let codes): codes.contains(status)
        }
    }
}
