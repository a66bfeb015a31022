import FoundationEssentials

/// The Netscape `cookies.txt` format curl reads with `-b` and writes with `-c`: one cookie a line,
/// seven tab-separated fields (domain, include subdomains, path, secure, expiry in Unix seconds with
/// 0 for a session cookie, name, value); `#HttpOnly_` before the domain marks an HttpOnly cookie.
extension CookieJar {
    /// A line that is not a cookie, with where it is.
    package struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// 1-based line.
        package var line: Int
        /// What is wrong.
        package var message: String

        /// Makes an error.
        package init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        package var description: String { "line \(line): \(message)" }
    }

    /// The cookies of a `cookies.txt` text (comments and blank lines skipped).
    package static func cookies(netscape text: String, at now: Date) throws(FileError) -> [Cookie] {
        var cookies: [Cookie] = []
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            var isHTTPOnly = false
            if line.hasPrefix("#HttpOnly_") {
                isHTTPOnly = true
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 else {
                throw FileError(line: index + 1, message: "a cookie line has 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), not \(fields.count)")
            }
            guard let includesSubdomains = flag(fields[1]), let isSecure = flag(fields[3]) else {
                throw FileError(line: index + 1, message: "the subdomain and secure fields are TRUE or FALSE")
            }
            guard let seconds = Int(fields[4]) else {
                throw FileError(line: index + 1, message: "the expiry '\(fields[4])' is not a number of seconds since 1970")
            }
            var domain = fields[0].lowercased()
            if domain.hasPrefix(".") { domain.removeFirst() }
            guard !domain.isEmpty, !fields[5].isEmpty else { throw FileError(line: index + 1, message: "a cookie needs a domain and a name") }
            let expires = seconds == 0 ? nil : Date(timeIntervalSince1970: Double(seconds))
            if let expires, expires <= now { continue }
            cookies.append(Cookie(
                name: fields[5], value: fields[6], domain: domain, isHostOnly: !includesSubdomains, path: fields[2].isEmpty ? "/" : fields[2],
                isSecure: isSecure, isHTTPOnly: isHTTPOnly, expires: expires, created: now))
        }
        return cookies
    }

    /// `cookies` as a `cookies.txt` text, with curl's header line.
    package static func netscapeText(_ cookies: [Cookie]) -> String {
        var text = "# Netscape HTTP Cookie File\n# Written by apiexplorer: curl -b reads it.\n\n"
        for cookie in cookies {
            let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? cookie.domain : "." + cookie.domain)
            let expires = cookie.expires.map { String(Int($0.timeIntervalSince1970)) } ?? "0"
            text += [
                domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE", expires, cookie.name, cookie.value,
            ].joined(separator: "\t") + "\n"
        }
        return text
    }

    private static func flag(_ text: String) -> Bool? {
        switch text.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }
}
