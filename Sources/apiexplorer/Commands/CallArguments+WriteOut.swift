import ArgumentParser
import DispatcherCore
import FoundationEssentials
import Sessions
import SystemSupport
import TextSupport
import TimingReport

extension CallArguments {
    /// The `--write-out` format: as given, or read from the file after `@` (`@-`: standard input),
    /// as curl reads it. Read before anything is sent, so a missing file sends nothing.
    static func writeOutFormat(_ option: String) throws(ExitCode) -> String {
        guard option.hasPrefix("@") else { return option }
        let path = String(option.dropFirst())
        if path == "-" { return String(decoding: StandardStreams.readInput(), as: UTF8.self) }
        do throws(FileReadError) {
            return String(decoding: try FileContents.contents(atPath: path, limit: 1 << 20), as: UTF8.self)
        } catch {
            Console.error("error: --write-out \(option): \(error); nothing was sent")
            throw ExitStatus.usage
        }
    }

    /// Prints `format` for the finished call, as curl's `-w` does after the body. Secrets are
    /// masked (unless `--reveal`: the outcome's redactor says) and what the server sent is cleaned
    /// of control characters as the body is.
    func printWriteOut(_ format: String, outcome: CallOutcome) {
        let (pieces, warnings) = WriteOut(Self.writeOutFacts(outcome, cleaned: Console.cleansBody(safe))).render(format)
        for warning in warnings { Console.error("warning: \(warning)") }
        for piece in pieces {
            if piece.toStandardError { StandardStreams.writeError(piece.text) } else { StandardStreams.writeOutput(piece.text) }
        }
    }

    /// What a call leaves for `--write-out` and for the figures of `call --json`.
    static func writeOutFacts(_ outcome: CallOutcome, cleaned: Bool) -> WriteOut.Facts {
        let exchange = outcome.exchange
        let redactor = outcome.redactor
        let response = exchange.response
        let clean: (String) -> String = cleaned ? TerminalText.cleaned : { $0 }
        let url = response?.url ?? exchange.request.url
        let transfer = exchange.transfers.last
        return WriteOut.Facts(
            status: response?.status, transfer: transfer, urlEffective: clean(redactor.url(url)),
            url: clean(redactor.url(transfer?.hops.first?.url ?? exchange.request.url.absoluteString)), method: exchange.request.method.rawValue,
            headers: response.map { redactor.headers($0.headers).map { ($0.name, clean($0.value)) } } ?? [],
            sizeDownload: response?.bodySize ?? 0,
            sizeUpload: transfer?.final?.bytesSent ?? exchange.request.body?.count ?? 0, numRedirects: response?.redirects.count ?? 0,
            httpVersion: response?.httpVersion, exitCode: Int(outcome.exitStatus),
            errorMessage: exchange.error.map { clean(redactor.text($0.message)) })
    }
}
