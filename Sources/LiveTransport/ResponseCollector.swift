import AsyncHTTPClient
import DispatcherCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import Synchronization

/// Collects one response where AsyncHTTPClient delivers it, on the event loop: the head with its
/// arrival time, then the body up to the cap, reporting the bytes received so far. A head declaring
/// a Content-Length over the cap fails the request at once, before any body byte is read; past the
/// cap it fails the request (which closes the connection) and keeps what fits. A gzip or deflate
/// body is decoded here (`ContentDecoder`), a bounded piece at a time, each counted against the cap.
final class ResponseCollector: HTTPClientResponseDelegate {
    /// A complete response.
    struct Collected: Sendable {
        var head: HTTPResponseHead
        var headArrived: ContinuousClock.Instant
        var body: ByteBuffer
        /// Set when the body went to a file.
        var downloadedFile: DownloadedFile?
        /// Set when the body streamed past to the observer (only its start is in `body`).
        var streamedByteCount: Int?
        /// When the last byte arrived.
        var ended: ContinuousClock.Instant = .now
    }

    private struct State {
        var head: HTTPResponseHead?
        var headArrived: ContinuousClock.Instant?
        var body = ByteBuffer()
        var expected: Int?
        /// The Content-Length the head declared, when it is over the cap.
        var declaredOverLimit: Int?
        /// Whether bytes beyond the cap were dropped.
        var cut = false
        /// Whether the observer asked for the body's parts.
        var observesBody = false
        /// Where a successful body is being written, for a download.
        var writer: DownloadWriter?
        /// Decodes a gzip or deflate body as it arrives.
        var decoder: ContentDecoder?
        /// The bytes handed on so far when the observer takes a successful body (`streamedBodyKept`).
        var streamed: Int?
    }

    private let state = Mutex(State())
    private let limit: Int
    private let progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?
    private let observer: ResponsePartObserver?
    /// Hears the status line as received, before the observer gets the head.
    private let statusLine: (@Sendable (_ httpVersion: String, _ statusLine: String) -> Void)?
    private let download: DownloadDestination?
    /// The size of the partial file the request asked to continue (`Range: bytes=N-`), if any.
    private let resumingFrom: Int?
    /// How much of a successful body the observer takes is kept (`RequestOptions.streamedBodyKept`).
    private let streamedBodyKept: Int?

    init(
        limit: Int, progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?, observer: ResponsePartObserver? = nil,
        download: DownloadDestination? = nil, resumingFrom: Int? = nil, streamedBodyKept: Int? = nil,
        statusLine: (@Sendable (_ httpVersion: String, _ statusLine: String) -> Void)? = nil
    ) {
        self.streamedBodyKept = streamedBodyKept
        self.statusLine = statusLine
        self.limit = limit
        self.progress = progress
        self.observer = observer
        self.download = download
        self.resumingFrom = resumingFrom
    }

    /// Whether the body is decoded (gzip, deflate) as it arrives.
    var decodes: Bool { state.withLock { $0.decoder != nil } }

    /// What arrived so far: the head and the body bytes kept, if a head arrived.
    var partial: (head: HTTPResponseHead, headArrived: ContinuousClock.Instant, body: ByteBuffer, streamed: Int?)? {
        state.withLock { state in
            guard let head = state.head, let arrived = state.headArrived else { return nil }
            return (head, arrived, state.body, state.streamed)
        }
    }

    /// The Content-Length the head declared, when it was over the cap (the request failed at the head).
    var declaredOverLimit: Int? { state.withLock { $0.declaredOverLimit } }

    /// Whether the body kept is cut (the cap was reached or the head declared more).
    var isCut: Bool { state.withLock { $0.cut } }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if let download, (200..<300).contains(Int(head.status.code)) {
            startDownload(download, head: head, task: task)
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let now = ContinuousClock.now
        let limit = self.limit
        let declared = head.headers.first(name: "Content-Length").flatMap(Int.init)
        let decoder = Self.decoder(for: head)
        let status = Int(head.status.code)
        if let statusLine, observer != nil {
            statusLine(HTTPTransport.versionText(head.version), "\(status) \(HTTPTransport.reasonPhrase(of: head))")
        }
        // A successful body the observer takes passes through: no cap, since it is not held.
        if let observer, streamedBodyKept != nil, (200..<300).contains(status),
            observer(.head(status: status, headers: HTTPTransport.headers(of: head.headers)))
        {
            state.withLock { state in
                state.head = head
                state.headArrived = now
                state.decoder = decoder
                if !head.headers.contains(name: "Content-Encoding") { state.expected = declared }
                state.observesBody = true
                state.streamed = 0
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let refused = state.withLock { state -> Bool in
            state.head = head
            state.headArrived = now
            state.decoder = decoder
            // A coded body's length says nothing about the decoded bytes we count.
            if !head.headers.contains(name: "Content-Encoding") { state.expected = declared }
            // Refused before reading it. A coded body too: deflate adds at most 5 bytes per 64 KiB block
            // and a header, so one declared this far over the cap decodes to more than the cap.
            let coded = head.headers.contains(name: "Content-Encoding")
            guard let declared, declared - (coded ? declared / 8192 + 64 : 0) > limit else { return false }
            state.declaredOverLimit = declared
            state.cut = true
            return true
        }
        if refused {
            task.fail(reason: TransportError(.bodyTooLarge))
        } else if let observer, !(streamedBodyKept != nil && (200..<300).contains(status)),
            observer(.head(status: status, headers: HTTPTransport.headers(of: head.headers)))
        {
            state.withLock { $0.observesBody = true }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// The decoder for a head's `Content-Encoding` (gzip, deflate), if any.
    static func decoder(for head: HTTPResponseHead) -> ContentDecoder? {
        let codings = head.headers["Content-Encoding"]
        return codings.isEmpty ? nil : ContentDecoder(contentEncoding: codings.joined(separator: ","))
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        guard let decoder = state.withLock({ $0.decoder }) else {
            _ = receive(part, task: task)
            return task.eventLoop.makeSucceededVoidFuture()
        }
        // Decoded a bounded piece at a time, each counted against the cap before the next is made.
        do throws(ContentDecoder.Failure) {
            try decoder.decode(part) { piece in
                var buffer = ByteBufferAllocator().buffer(capacity: piece.count)
                buffer.writeBytes(piece)
                return receive(buffer, task: task)
            }
        } catch {
            task.fail(reason: TransportError(.cannotDecodeContentData, message: "The compressed body could not be decoded: \(error.message)."))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Takes body bytes as they will be kept (decoded): to the download's file, else into the body
    /// up to the cap. Returns false once no more is wanted (the cap is passed, or writing failed).
    private func receive(_ part: ByteBuffer, task: HTTPClient.Task<Collected>) -> Bool {
        if let (writer, expected) = state.withLock({ state in state.writer.map { ($0, state.expected) } }) {
            do throws(TransportError) {
                try writer.write(part)
                progress?(writer.resumedFrom + writer.written, expected)
                return true
            } catch {
                task.fail(reason: error)
                return false
            }
        }
        if let streamedBodyKept, let streamed = state.withLock({ $0.streamed }) {
            return pass(part, kept: streamedBodyKept, after: streamed)
        }
        let limit = self.limit
        let (received, expected, overflowed, kept, observed) = state.withLock { state -> (Int, Int?, Bool, ByteBuffer, Bool) in
            let room = limit - state.body.readableBytes
            var part = part
            let overflowed = part.readableBytes > room
            if overflowed {
                part = part.getSlice(at: part.readerIndex, length: max(room, 0)) ?? ByteBuffer()
                state.cut = true
            }
            if state.body.readableBytes == 0 {
                state.body = part  // the common single-part body: no copy
            } else {
                state.body.writeImmutableBuffer(part)
            }
            return (state.body.readableBytes, state.expected, overflowed, part, state.observesBody)
        }
        if observed, let observer, kept.readableBytes > 0 { _ = observer(.body(kept.withUnsafeReadableBytes { Data($0) })) }
        progress?(received, expected)
        if overflowed {
            task.fail(reason: TransportError(.bodyTooLarge))
            return false
        }
        return true
    }

    /// Hands a part of a taken body to the observer, keeping only the body's first `kept` bytes.
    private func pass(_ part: ByteBuffer, kept: Int, after streamed: Int) -> Bool {
        let expected = state.withLock { state -> Int? in
            let room = kept - state.body.readableBytes
            if room > 0, let start = part.getSlice(at: part.readerIndex, length: min(room, part.readableBytes)) {
                state.body.writeImmutableBuffer(start)
            }
            state.streamed = streamed + part.readableBytes
            return state.expected
        }
        if part.readableBytes > 0, let observer { _ = observer(.body(part.withUnsafeReadableBytes { Data($0) })) }
        progress?(streamed + part.readableBytes, expected)
        return true
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        try state.withLock { state in
            guard let head = state.head, let arrived = state.headArrived else { throw HTTPClientError.remoteConnectionClosed }
            let file = try state.writer?.finish()
            state.writer = nil
            var collected = Collected(head: head, headArrived: arrived, body: state.body, downloadedFile: file, ended: .now)
            collected.streamedByteCount = state.streamed
            return collected
        }
    }

    /// A successful head of a download: the body goes to the partial file, continued when the
    /// server answers the range asked for, started over on a whole body.
    private func startDownload(_ download: DownloadDestination, head: HTTPResponseHead, task: HTTPClient.Task<Collected>) {
        let now = ContinuousClock.now
        let coded = head.headers.contains(name: "Content-Encoding")
        let declared = coded ? nil : head.headers.first(name: "Content-Length").flatMap(Int.init)
        let resumed = resumingFrom ?? 0
        let continuing = head.status == .partialContent
        if continuing, !DownloadWriter.continues(at: resumed, contentRange: head.headers.first(name: "Content-Range")) {
            let range = head.headers.first(name: "Content-Range") ?? "none"
            task.fail(reason: TransportError(
                .badServerResponse, message: "The server answered a range other than the one asked for (bytes=\(resumed)-; Content-Range: \(range))."))
            return
        }
        do throws(TransportError) {
            let writer = try DownloadWriter(destination: download, continuing: continuing, resumedFrom: resumed, expected: declared)
            // A range continued is coded from its middle, which cannot be decoded: kept as it comes.
            let decoder = continuing ? nil : Self.decoder(for: head)
            state.withLock { state in
                state.head = head
                state.headArrived = now
                state.expected = declared.map { $0 + writer.resumedFrom }
                state.writer = writer
                state.decoder = decoder
            }
        } catch {
            state.withLock { state in
                state.head = head
                state.headArrived = now
            }
            task.fail(reason: error)
        }
    }
}
