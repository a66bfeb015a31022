import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import OAuth2
import TerminalKit
import TextSupport

/// The token window's text: each token's source, type and scopes, its value (masked unless
/// secrets are revealed), when it expires counted from when the window opened, and for a JWT its
/// header and claims.
enum TokensView {
    /// Draws the cookie or token window.
    static func render(_ window: AuthWindow, state: AppState, screen: Rect, into buffer: inout Buffer) {
        switch window {
        case .cookies(let window):
            let lines = cookieLines(window, revealed: state.revealsSecrets, timeZone: state.timeZone)
            let overlay = Overlay(
                block: OverlayView.block(
                    "Cookies · \(window.environment.service) · \(window.environment.environment) · \(window.mode.badge)", hint: "d deletes · Enter clears · Esc"),
                width: .percent(80), height: .cells(min(lines.count, max(1, state.size.height - 6)) + 2))
            TextView(lines, wraps: true).render(into: &buffer, area: OverlayView.prepare(overlay, in: screen, buffer: &buffer))
        case .tokens(let window):
            let lines = lines(window, revealed: state.revealsSecrets, timeZone: state.timeZone)
            let height = min(lines.count, max(1, state.size.height - 6))
            let overlay = Overlay(
                block: OverlayView.block(
                    "Tokens · \(window.environment.service) · \(window.environment.environment) · \(window.mode.badge)", hint: "S signs in · Enter signs out · Esc"),
                width: .percent(80), height: .cells(height + 2))
            var view = TextView(lines, wraps: true)
            let area = OverlayView.prepare(overlay, in: screen, buffer: &buffer)
            view.verticalOffset = min(window.scroll, view.maxVerticalOffset(viewport: area.size))
            view.render(into: &buffer, area: area)
        }
    }

    static func lines(_ window: TokensWindow, revealed: Bool, timeZone: LocalTimeZone) -> [Line] {
        guard !window.tokens.isEmpty else {
            return [
                Line("No token yet: the first request that needs one signs in.", style: Theme.dim),
                Line("(OAuth 2.0 tokens and auth.refresh tokens show here.)", style: Theme.dim),
            ]
        }
        var lines: [Line] = []
        for token in window.tokens {
            var heading = [Span(token.source, style: Theme.heading)]
            if let type = token.type { heading.append(Span(" · \(type)", style: Theme.dim)) }
            if let scope = token.scope, !scope.isEmpty { heading.append(Span(" · scope \(scope)", style: Theme.dim)) }
            lines.append(Line(heading))
            let shown = revealed ? token.value : Redactor.mask + " (v reveals)"
            lines.append(Line([Span("  token    ", style: Theme.dim), Span(shown, style: revealed ? .plain : Theme.secretMask)]))
            lines.append(Line([Span("  expires  ", style: Theme.dim), Span(expiry(token.expiresAt, from: window.shownAt, timeZone: timeZone))]))
            if token.hasRefreshToken { lines.append(Line([Span("  refresh  ", style: Theme.dim), Span("a refresh token is held")])) }
            if let jwt = token.jwt {
                lines.append(Line([Span("  JWT header ", style: Theme.dim), Span(jwt.header.compactText)]))
                lines.append(signatureLine(token.signature))
                lines.append(Line("  JWT claims", style: Theme.dim))
                lines += jwt.claims.prettyText().split(separator: "\n").map { Line("    " + $0) }
                lines += claimTimes(jwt.claims, from: window.shownAt, timeZone: timeZone)
            }
            lines.append("")
        }
        lines.append(Line("S signs in again now; Enter signs out (tokens and cookies forgotten) and the next request signs in again.", style: Theme.dim))
        return lines
    }

    /// `  signature ✓ verified (ES256, key "k1") with the issuer's published keys`, or why not.
    static func signatureLine(_ signature: JWTSignature?) -> Line {
        let label = Span("  signature ", style: Theme.dim)
        switch signature {
        case .verified(let algorithm, let keyID)?:
            return Line([label, Span("✓ verified", style: Theme.status(200)), Span(" (\(algorithm)\(keyID.map { ", key '\($0)'" } ?? "")) with the issuer's published keys", style: Theme.dim)])
        case .failed(let reason)?:
            return Line([label, Span("✗ does not verify", style: Theme.error), Span(": \(reason)", style: Theme.dim)])
        case .unchecked(let reason)?:
            return Line([label, Span("not checked", style: Theme.dim), Span(": \(reason)", style: Theme.dim)])
        case nil:
            return Line([label, Span("not checked", style: Theme.dim)])
        }
    }

    /// One cookie a line: name, value (masked unless revealed), domain and path, flags, expiry.
    static func cookieLines(_ window: CookiesWindow, revealed: Bool, timeZone: LocalTimeZone) -> [Line] {
        guard !window.cookies.isEmpty else {
            return [Line("No cookie: responses that set one (Set-Cookie) fill the jar, and it goes with later requests.", style: Theme.dim)]
        }
        var lines = window.cookies.enumerated().map { index, cookie in
            var flags = [cookie.isHostOnly ? "host-only" : "domain", cookie.isSecure ? "Secure" : nil, cookie.isHTTPOnly ? "HttpOnly" : nil].compactMap { $0 }
            flags.append(cookie.expires.map { "expires " + expiry($0, from: window.shownAt, timeZone: timeZone) } ?? "session")
            let value = revealed ? cookie.value : Redactor.mask
            return Line([
                Span(index == window.selected ? "› " : "  ", style: Theme.key),
                Span(cookie.name, style: Theme.heading), Span("=", style: Theme.dim), Span(value, style: revealed ? .plain : Theme.secretMask),
                Span("  \(cookie.domain)\(cookie.path)  \(flags.joined(separator: " · "))", style: Theme.dim),
            ])
        }
        lines += ["", Line("d deletes the cookie under the cursor; Enter clears the jar; v shows the values.", style: Theme.dim)]
        return lines
    }

    /// The JWT time claims (`exp`, `iat`, `nbf`, `auth_time`) as dates with their distance from now:
    /// `    exp  in 9 d 23 h (2026-12-08 10:42:03)`.
    static func claimTimes(_ claims: JSONValue, from now: Date, timeZone: LocalTimeZone) -> [Line] {
        ["exp", "iat", "nbf", "auth_time"].compactMap { name -> Line? in
            guard case .number(let text)? = claims[name], let seconds = Double(text) else { return nil }
            let date = Date(timeIntervalSince1970: seconds)
            return Line([Span("    \(name.padded(to: 9)) ", style: Theme.dim), Span(relative(date, from: now, timeZone: timeZone))])
        }
    }

    /// `in 9 min 58 s (at 10:42:03)`, `expired 2 min ago`, or that the server gave no expiry.
    static func expiry(_ date: Date?, from now: Date, timeZone: LocalTimeZone) -> String {
        guard let date else { return "not given" }
        if date <= now { return "expired " + relative(date, from: now, timeZone: timeZone) }
        return relative(date, from: now, timeZone: timeZone)
    }

    /// `in 9 d 23 h (2026-12-08 10:42:03)`, `2 min 5 s ago (at 10:40:01)`: the clock alone when the
    /// date is today, where the person is.
    static func relative(_ date: Date, from now: Date, timeZone: LocalTimeZone) -> String {
        let seconds = Int(date.timeIntervalSince(now).rounded())
        let when = localDay(date, timeZone) == localDay(now, timeZone)
            ? "at \(OverlayText.time(date, in: timeZone))" : "\(OverlayText.date(date, in: timeZone)) \(OverlayText.time(date, in: timeZone))"
        return seconds > 0 ? "in \(duration(seconds)) (\(when))" : "\(duration(-seconds)) ago (\(when))"
    }

    private static func localDay(_ date: Date, _ timeZone: LocalTimeZone) -> Int {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        if seconds < 86_400 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        return "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h"
    }
}
