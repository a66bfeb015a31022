/// What a key does to cookies and tokens.
package enum AuthCommand: Sendable, Hashable {
    /// The environment's tokens (OAuth 2.0, refreshed), JWT claims decoded; sign out from there.
    case showTokens
    /// The environment's cookie jar, values masked; clear it from there.
    case showCookies
    /// In the cookie window: delete the cookie under the cursor.
    case deleteItem
    /// In the token window: sign in again now.
    case signInAgain
}

extension AuthFeature {
    static let keys: [KeyBinding] = [
        KeyBinding("T", .auth(.showTokens), .other, help: "tokens of the environment: expiry, scopes, JWT claims and signature (Enter signs out)"),
        KeyBinding("K", .auth(.showCookies), .other, help: "cookies of the environment, values masked (Enter clears them)"),
    ]

    static let windowKeys: [KeyBinding] = [
        KeyBinding("d", .auth(.deleteItem), .windows, help: "cookies: delete the cookie under the cursor"),
        KeyBinding("S", .auth(.signInAgain), .windows, help: "tokens: sign in again now"),
    ]
}
