import DispatcherCore
import FoundationEssentials
import SystemSupport
import TextSupport

/// Unbuffered output, so logs appear at once even when piped. Everything but a response's body is
/// cleaned of control characters when it goes to a terminal (`TerminalText`): a catalog title, a
/// server's error message or header, a WebSocket close reason cannot move the cursor, retitle the
/// window or rewrite the clipboard. A body is written as received unless `safe` (see `body`).
enum Console {
    /// Whether standard output and standard error are terminals (asked once).
    static let outputIsTerminal = StandardStreams.isOutputTerminal
    static let errorIsTerminal = StandardStreams.isErrorTerminal

    /// Writes a line to standard output.
    static func out(_ line: String, terminator: String = "\n") {
        let text = line + terminator
        StandardStreams.writeOutput(outputIsTerminal ? TerminalText.cleaned(text) : text)
    }

    /// Writes a line to standard error: cleaned wherever it goes (messages are for people, and a
    /// log read later on a terminal would act on a control it kept).
    static func error(_ line: String, terminator: String = "\n") {
        StandardStreams.writeError(TerminalText.cleaned(line + terminator))
    }

    /// Writes a response body (or a piece of one) to standard output: as received, like curl,
    /// unless `safe`, which cleans it as other text is.
    static func body(_ data: Data, safe: Bool) {
        guard safe else { return StandardStreams.writeOutput(data) }
        StandardStreams.writeOutput(TerminalText.cleaned(bytes: data))
    }

    /// Whether a body is cleaned: `--safe` / `--no-safe` when given, else when standard output is a
    /// terminal (a body read by a person, not a program).
    static func cleansBody(_ safe: Bool?) -> Bool { safe ?? outputIsTerminal }

    /// The status line and headers `--include` prints before a body (`curl -i`): credentials are
    /// masked by name (`Set-Cookie`, `Authorization` …) and known secrets by value.
    static func head(httpVersion: String?, statusLine: String, headers: Headers, redactor: Redactor) -> String {
        var head = "\(httpVersion ?? "HTTP/1.1") \(statusLine)\r\n"
        for field in headers { head += "\(field.name): \(redactor.header(name: field.name, value: field.value))\r\n" }
        return head + "\r\n"
    }
}
