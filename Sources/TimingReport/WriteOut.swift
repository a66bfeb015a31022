import DispatcherCore
import JSONSupport
import TextSupport

/// curl's `--write-out FORMAT` for a finished request: `%{variable}` replaced by the figure curl
/// names so (`%{http_code}`, `%{time_total}` …), `%header{name}` by a response header, `%%` by
/// `%`, and `\n`, `\r`, `\t` by their characters; `%{stderr}` and `%{stdout}` switch where what
/// follows goes. Figures are written as curl 7.88 writes them: times in seconds with six
/// decimals, sizes and speeds as whole bytes, the status on three digits (`000` without one).
package struct WriteOut: Sendable {
    /// What a request left for the format to print.
    package struct Facts: Sendable {
        /// The status, nil when no response came.
        package var status: Int?
        /// Where the time went (nil for a stub or a cached answer: every time is 0).
        package var transfer: TransferTiming?
        /// The last URL asked for (after redirects).
        package var urlEffective: String
        /// The first URL asked for (nil: `urlEffective`).
        package var url: String?
        /// The request's method.
        package var method: String
        /// The response's headers, in order.
        package var headers: [(name: String, value: String)]
        /// The body's bytes received (decoded).
        package var sizeDownload: Int
        /// The request body's bytes.
        package var sizeUpload: Int
        /// Redirects followed.
        package var numRedirects: Int
        /// `HTTP/1.1`, `HTTP/2` … of the response.
        package var httpVersion: String?
        /// The exit status the call ends with.
        package var exitCode: Int
        /// The error's sentence, when the call failed.
        package var errorMessage: String?

        /// Makes the facts.
        package init(
            status: Int?, transfer: TransferTiming?, urlEffective: String, url: String? = nil, method: String,
            headers: [(name: String, value: String)] = [],
            sizeDownload: Int = 0, sizeUpload: Int = 0, numRedirects: Int = 0, httpVersion: String? = nil, exitCode: Int = 0,
            errorMessage: String? = nil
        ) {
            self.status = status
            self.transfer = transfer
            self.urlEffective = urlEffective
            self.url = url
            self.method = method
            self.headers = headers
            self.sizeDownload = sizeDownload
            self.sizeUpload = sizeUpload
            self.numRedirects = numRedirects
            self.httpVersion = httpVersion
            self.exitCode = exitCode
            self.errorMessage = errorMessage
        }
    }

    /// A piece of the output and where it goes.
    package struct Piece: Sendable, Hashable {
        package var text: String
        package var toStandardError: Bool
    }

    /// One variable's value: a number, or text (nil: curl prints nothing, and `null` in `%{json}`).
    enum Value: Sendable, Hashable {
        case seconds(Duration)
        case integer(Int)
        /// A status: three digits in text (`000` without one), a number in JSON.
        case status(Int)
        case text(String?)
    }

    /// Every variable, by curl's name, in the order `%{json}` lists them (alphabetical, as curl).
    static let names: [String] = [
        "content_type", "errormsg", "exitcode", "http_code", "http_version", "local_ip", "local_port", "method", "num_connects",
        "num_headers", "num_redirects", "redirect_url", "remote_ip", "remote_port", "response_code", "scheme", "size_download",
        "size_upload", "speed_download", "speed_upload", "time_appconnect", "time_connect", "time_namelookup", "time_pretransfer",
        "time_redirect", "time_starttransfer", "time_total", "url", "url_effective",
    ]

    /// The variables `%{json}` holds, and what `--help` and docs/cli.md list.
    package static var variables: [String] { names + ["json", "stderr", "stdout"] }

    let facts: Facts

    /// A format for `facts`.
    package init(_ facts: Facts) {
        self.facts = facts
    }

    /// The output of `format`, and a warning for each variable curl would not know.
    package func render(_ format: String) -> (pieces: [Piece], warnings: [String]) {
        var pieces: [Piece] = []
        var warnings: [String] = []
        var current = ""
        var toStandardError = false
        func flush() {
            if !current.isEmpty { pieces.append(Piece(text: current, toStandardError: toStandardError)) }
            current = ""
        }
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            let next = format.index(after: index)
            if character == "\\", next < format.endIndex {
                switch format[next] {
                case "n": current += "\n"
                case "r": current += "\r"
                case "t": current += "\t"
                default: current += "\\" + String(format[next])
                }
                index = format.index(after: next)
                continue
            }
            guard character == "%", next < format.endIndex else {
                current.append(character)
                index = next
                continue
            }
            if format[next] == "%" {
                current += "%"
                index = format.index(after: next)
                continue
            }
            if format[next...].hasPrefix("header{"), let close = format[next...].firstIndex(of: "}") {
                let name = format[format.index(next, offsetBy: 7)..<close].lowercased()
                current += facts.headers.filter { $0.name.lowercased() == name }.map(\.value).joined(separator: ", ")
                index = format.index(after: close)
                continue
            }
            guard format[next] == "{", let close = format[next...].firstIndex(of: "}") else {
                current.append(character)
                index = next
                continue
            }
            let name = String(format[format.index(after: next)..<close])
            index = format.index(after: close)
            switch name {
            case "stderr":
                flush()
                toStandardError = true
            case "stdout":
                flush()
                toStandardError = false
            case "json": current += json
            default:
                if let value = value(of: name) {
                    current += Self.text(value)
                } else {
                    warnings.append("unknown --write-out variable: '\(name)'")
                }
            }
        }
        flush()
        return (pieces, warnings)
    }

    /// Every variable as one JSON object, keys in curl's (alphabetical) order.
    package var json: String {
        let members = Self.names.compactMap { name -> String? in
            guard let value = value(of: name) else { return nil }
            let text: String
            switch value {
            case .text(nil): text = "null"
            case .text(let string?): text = Self.quoted(string)
            case .status(let status): text = String(status)
            case .integer, .seconds: text = Self.text(value)
            }
            return "\"\(name)\":\(text)"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A variable's value, nil for a name curl would not know.
    func value(of name: String) -> Value? {
        let times = facts.transfer?.curl ?? CurlTimes()
        let connection = facts.transfer?.final?.connection
        switch name {
        case "http_code", "response_code": return .status(facts.status ?? 0)
        case "time_namelookup": return .seconds(times.nameLookup)
        case "time_connect": return .seconds(times.connect)
        case "time_appconnect": return .seconds(times.appConnect)
        case "time_pretransfer": return .seconds(times.preTransfer)
        case "time_starttransfer": return .seconds(times.startTransfer)
        case "time_redirect": return .seconds(times.redirect)
        case "time_total": return .seconds(times.total)
        case "num_redirects": return .integer(facts.numRedirects)
        case "num_connects": return .integer(facts.transfer?.hops.count { $0.connection?.reused == false } ?? 0)
        case "num_headers": return .integer(facts.headers.count)
        case "size_download": return .integer(facts.sizeDownload)
        case "size_upload": return .integer(facts.sizeUpload)
        case "speed_download": return .integer(Self.speed(facts.sizeDownload, times.total))
        case "speed_upload": return .integer(Self.speed(facts.sizeUpload, times.total))
        case "remote_ip": return .text(connection?.remoteAddress ?? "")
        case "remote_port": return .integer(connection?.remotePort ?? 0)
        case "local_ip": return .text(connection?.localAddress ?? "")
        case "local_port": return .integer(connection?.localPort ?? 0)
        case "url": return .text(facts.url ?? facts.urlEffective)
        case "url_effective": return .text(facts.urlEffective)
        case "redirect_url":
            guard let status = facts.status, [301, 302, 303, 307, 308].contains(status) else { return .text(nil) }
            return .text(facts.headers.first { $0.name.lowercased() == "location" }?.value)
        case "content_type": return .text(facts.headers.first { $0.name.lowercased() == "content-type" }?.value)
        case "method": return .text(facts.method)
        case "scheme": return .text(facts.urlEffective.prefix { $0 != ":" }.uppercased())
        case "http_version":
            guard let version = facts.httpVersion else { return .text("0") }
            return .text(version.hasPrefix("HTTP/") ? String(version.dropFirst(5)) : version)
        case "exitcode": return .integer(facts.exitCode)
        case "errormsg": return .text(facts.errorMessage)
        default: return nil
        }
    }

    /// Bytes per second over the whole transfer, as curl averages it.
    static func speed(_ bytes: Int, _ total: Duration) -> Int {
        let microseconds = total.microseconds
        guard microseconds > 0 else { return 0 }
        return Int(Double(bytes) * 1_000_000 / Double(microseconds))
    }

    /// A value as curl prints it.
    static func text(_ value: Value) -> String {
        switch value {
        case .seconds(let duration):
            let microseconds = max(duration.microseconds, 0)
            return "\(microseconds / 1_000_000)." + DecimalText.zeroPadded(microseconds % 1_000_000, width: 6)
        case .integer(let number): return String(number)
        case .status(let status): return DecimalText.zeroPadded(status, width: 3)
        case .text(let text): return text ?? ""
        }
    }

    /// A JSON string.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).compactText
    }
}

extension Duration {
    /// Whole microseconds.
    var microseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    }
}
