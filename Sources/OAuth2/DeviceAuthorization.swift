import FoundationEssentials

/// What the device authorization endpoint answered (RFC 8628 §3.2): the code the user types at the
/// verification URL, and how often to ask whether they did.
package struct DeviceAuthorization: Sendable, Hashable {
    /// The code the client polls with (never shown).
    package var deviceCode: String
    /// The code the user types.
    package var userCode: String
    /// Where the user goes.
    package var verificationURI: String
    /// The same with the code in it, when the server gives one.
    package var verificationURIComplete: String?
    /// How long the codes are good for.
    package var expiresIn: Duration
    /// Time between polls (§3.5: 5 s unless the server says).
    package var interval: Duration

    /// Makes one.
    package init(
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
