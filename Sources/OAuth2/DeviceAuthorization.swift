import FoundationEssentials

/// What the device authorization endpoint answered (RFC 8628 §3.2): the code the user types at the
/// verification URL, and how often to ask whether they did.
public struct DeviceAuthorization: Sendable, Hashable {
    /// The code the client polls with (never shown).
    public var deviceCode: String
    /// The code the user types.
    public var userCode: String
    /// Where the user goes.
    public var verificationURI: String
    /// The same with the code in it, when the server gives one.
    public var verificationURIComplete: String?
    /// How long the codes are good for.
    public var expiresIn: Duration
    /// Time between polls (§3.5: 5 s unless the server says).
    public var interval: Duration

    /// Makes one.
    public init(
        deviceCode: String, userCode: String, verificationURI: String, verificationURIComplete: String? = nil,
        expiresIn: Duration = .seconds(900), interval: Duration = .seconds(5)
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }
}
