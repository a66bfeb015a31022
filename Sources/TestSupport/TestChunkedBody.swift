/// A streamed response body, written chunk by chunk with optional pauses.
package struct TestChunkedBody: Sendable {
    /// Where the chunks come from.
    package enum Source: Sendable {
        /// `totalBytes` of `TestPattern` bytes in chunks of `chunkSize` (the last may be shorter),
        /// generated chunk by chunk so huge bodies never sit in memory.
        case pattern(totalBytes: Int, chunkSize: Int)
        /// These exact chunks (empty ones are skipped: an empty chunk would end the body).
        case chunks([[UInt8]])
    }

    /// The chunks to send.
    package var source: Source
    /// Real time to wait between two chunks (a slow drip when non-zero).
    package var interval: Duration
    /// When set, the server stops after this many body bytes and ends the connection without
    /// finishing the body; the count is rounded up to the chunk that crosses it.
    package var abortAfterBytes: Int?
    /// How the connection ends when `abortAfterBytes` is set.
    package var abortEnding: TestResponse.ConnectionEnding
    /// Awaited before each chunk after the first (given its index): a test holds the rest of the
    /// body back until it has seen what came first, instead of betting on a pause being long enough.
    package var gate: (@Sendable (Int) async -> Void)?

    /// A streamed body.
    package init(
        source: Source,
        interval: Duration = .zero,
        abortAfterBytes: Int? = nil,
        abortEnding: TestResponse.ConnectionEnding = .close
    ) {
        self.source = source
        self.interval = interval
        self.abortAfterBytes = abortAfterBytes
        self.abortEnding = abortEnding
    }

    /// The number of chunks the server writes when nothing aborts the stream.
    package var chunkCount: Int {
        switch source {
        case .pattern(let total, let size): size > 0 ? (total + size - 1) / size : 0
        case .chunks(let chunks): chunks.count(where: { !$0.isEmpty })
        }
    }

    /// The total number of body bytes when nothing aborts the stream.
    package var totalBytes: Int {
        switch source {
        case .pattern(let total, _): total
        case .chunks(let chunks): chunks.reduce(0) { $0 + $1.count }
        }
    }
}
