import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import SystemSupport

/// Downloads as a kind of exchange: a request with a file to write its body to (`d`, an
/// endpoint's `download:`) reports its bytes as they arrive, and an answer that came whole (a
/// stub, a cached response) is written to the file all the same, so stub and live end alike.
struct Downloads: ExchangeKind {
    func part(in request: OutgoingRequest) -> (any ExchangePart)? {
        guard let path = request.call.downloadPath else { return nil }
        // Checked by `.checkDownload` (absolute, confined, replacing only when asked); otherwise
        // relative to where the explorer runs, as a shell's would be, never replacing a file.
        let replaces = if case .checked(true) = request.call.downloadPlace { true } else { false }
        let destination = DownloadDestination(path: path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path, replaces: replaces)
        return Download(destination: destination, ticket: request.ticket.id, post: request.post, clock: request.clock)
    }
}

/// One request's download.
struct Download: ExchangePart {
    let destination: DownloadDestination
    let ticket: Int
    let post: @Sendable (AppAction) -> Void
    let clock: DispatchClock

    func prepare(_ options: inout RequestOptions) {
        options.download = destination
        // Bytes so far with the clock's reading: the reducer computes the rate from these.
        let throttle = ProgressThrottle(interval: ProgressThrottle.reportInterval)
        let (ticket, post, clock) = (ticket, post, clock)
        options.progress = { received, expected in
            guard throttle.shouldReport() else { return }
            post(.downloads(.progressed(ticket: ticket, received: received, expected: expected, at: clock.now())))
        }
    }

    func ended(_ exchange: inout Exchange) { exchange = Self.saved(exchange, to: destination) }

    /// A download answered whole goes to its file; a file that cannot be written is the request's error.
    static func saved(_ exchange: Exchange, to download: DownloadDestination) -> Exchange {
        guard exchange.error == nil, var response = exchange.response, response.downloadedFile == nil else { return exchange }
        var exchange = exchange
        do throws(SystemError) {
            try AtomicFile.write(response.body, to: URL(fileURLWithPath: download.path), replacing: download.replaces)
            response.downloadedFile = DownloadedFile(path: download.path, byteCount: response.body.count)
            response.body = Data()
            exchange.result = .success(response)
        } catch {
            exchange.result = .failure(DispatchError(
                kind: .unknown, message: "The body could not be written to \(download.path): \(error)", status: response.status,
                response: response, source: "download"))
        }
        return exchange
    }
}
