import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a build has come.
package struct BodyBuildProgress: Sendable {
    /// Bytes indexed so far.
    package var bytesProcessed: Int
    /// Size of the body.
    package var totalBytes: Int
    /// A document of the lines indexed so far (`isComplete == false`), published once, early, for large
    /// JSON bodies: show it at once and swap in the final document when the build returns. Line numbers
    /// and fold positions agree between the two, so a view state carries over (unless the final `kind`
    /// differs, when the body turned out not to be valid JSON).
    package var preview: BodyDocument?

    /// Share of the body indexed, 0...1.
    package var fraction: Double { totalBytes == 0 ? 1 : Double(bytesProcessed) / Double(totalBytes) }
}

/// Tuning for builds.
package struct BodyBuildOptions: Sendable {
    /// Bytes indexed between cancellation checks and progress reports.
    package var chunkSize: Int
    /// Bytes indexed before a preview is published (JSON bodies larger than this only).
    package var previewAfterBytes: Int

    /// Makes options; the defaults suit interactive use.
    package init(chunkSize: Int = 1 << 20, previewAfterBytes: Int = 256 << 10) {
        self.chunkSize = max(4096, chunkSize)
        self.previewAfterBytes = previewAfterBytes
    }
}

extension BodyDocument {
    /// Lays out a body off the caller's thread. Reports progress after each chunk (and a preview early on
    /// for large JSON bodies); checks Task cancellation between chunks and throws `CancellationError`.
    @concurrent
    package static func build(
        data: Data, contentType: String?, options: BodyBuildOptions = BodyBuildOptions(),
        progress: @escaping @Sendable (BodyBuildProgress) -> Void = { _ in }
    ) async throws -> BodyDocument {
        let builder = BodyDocumentBuilder(data: data, contentType: contentType, options: options)
        guard let parts = builder.run(shouldCancel: { Task.isCancelled }, progress: progress) else {
            throw CancellationError()
        }
        return BodyDocument(parts)
    }

    /// What `builds(data:contentType:)` reports.
    package enum BuildEvent: Sendable {
        /// Progress, possibly with a preview.
        case progress(BodyBuildProgress)
        /// The finished document.
        case finished(BodyDocument)
    }

    /// The same build as a stream of events, for runtimes that turn events into actions. Ending the
    /// iteration (or cancelling its task) cancels the build.
    package static func builds(data: Data, contentType: String?, options: BodyBuildOptions = BodyBuildOptions())
        -> AsyncThrowingStream<BuildEvent, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let document = try await build(data: data, contentType: contentType, options: options) {
                        continuation.yield(.progress($0))
                    }
                    continuation.yield(.finished(document))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Everything a `BodyDocument` is made of.
struct BodyDocumentParts: Sendable {
    var data: Data
    var contentType: String?
    var kind: BodyKind
    var notices: [BodyNotice]
    var isComplete: Bool
    var rootCount: Int
    var storage: BodyDocument.Storage
}

/// Decides the kind of a body and indexes it, chunk by chunk.
struct BodyDocumentBuilder {
    let data: Data
    let contentType: String?
    let options: BodyBuildOptions

    init(data: Data, contentType: String?, options: BodyBuildOptions) {
        self.data = data
        self.contentType = contentType
        self.options = options
    }

    /// Builds the parts, or nil when `shouldCancel` said so.
    func run(shouldCancel: () -> Bool, progress: (BodyBuildProgress) -> Void) -> BodyDocumentParts? {
        let declared = DeclaredContent(contentType: contentType)
        return data.withUnsafeBytes { bytes in
            if bytes.isEmpty {
                let notice = BodyNotice(kind: .emptyBody, message: "The body is empty.")
                return parts(.text(.plain), [notice], .text(TextLineIndex(byteCount: 0)))
            }
            if BodySniffer.looksBinary(bytes) {
                var notices: [BodyNotice] = []
                if declared != .binary, declared != .unknown {
                    notices.append(mismatch("the body looks binary: shown as a hex dump"))
                }
                progress(BodyBuildProgress(bytesProcessed: bytes.count, totalBytes: bytes.count))
                return parts(.binary, notices, .binary)
            }
            let first = BodySniffer.firstSignificantByte(bytes)
            let sniffedJSON = first == Byte.openBrace || first == Byte.openBracket
            if declared.isJSON || sniffedJSON {
                switch indexJSON(bytes, allowsSequence: declared == .jsonSequence || !declared.isJSON,
                    shouldCancel: shouldCancel, progress: progress)
                {
                case .cancelled:
                    return nil
                case .indexed(let index, let rootCount, let invalidUTF8):
                    var notices: [BodyNotice] = []
                    if !declared.isJSON, declared != .unknown {
                        notices.append(mismatch("the body is JSON: shown as JSON"))
                    }
                    if let invalidUTF8 { notices.append(invalidUTF8Notice(bytes, first: invalidUTF8, count: nil)) }
                    var result = parts(.json, notices, .json(index))
                    result.rootCount = rootCount
                    return result
                case .invalid(let error):
                    guard declared.isJSON else { break }
                    let (line, column) = Self.lineAndColumn(of: error.offset, in: bytes)
                    let notice = BodyNotice(kind: .invalidJSON,
                        message: "Not valid JSON at \(line):\(column): \(error.reason). Shown as text.",
                        line: line, column: column)
                    return indexText(bytes, format: BodySniffer.markup(bytes) ?? .plain, notices: [notice],
                        shouldCancel: shouldCancel, progress: progress)
                }
            }
            let format: BodyTextFormat
            var notices: [BodyNotice] = []
            switch declared {
            case .text(let declaredFormat):
                format = BodySniffer.markup(bytes) ?? declaredFormat
            case .binary:
                format = BodySniffer.markup(bytes) ?? .plain
                notices.append(mismatch("the body looks like text: shown as text"))
            case .json, .jsonSequence, .unknown:
                format = BodySniffer.markup(bytes) ?? .plain
            }
            return indexText(bytes, format: format, notices: notices, shouldCancel: shouldCancel, progress: progress)
        }
    }

    /// A document that shows the body as a hex dump; used only if a synchronous build could not finish.
    func binaryFallback() -> BodyDocumentParts { parts(.binary, [], .binary) }

    private func parts(_ kind: BodyKind, _ notices: [BodyNotice], _ storage: BodyDocument.Storage) -> BodyDocumentParts {
        BodyDocumentParts(data: data, contentType: contentType, kind: kind, notices: notices, isComplete: true,
            rootCount: 0, storage: storage)
    }

    private func mismatch(_ finding: String) -> BodyNotice {
        BodyNotice(kind: .contentTypeMismatch, message: "Content-Type is \(contentType ?? "missing"), but \(finding).")
    }

    private enum JSONOutcome {
        case indexed(JSONLineIndex, rootCount: Int, invalidUTF8: Int?)
        case invalid(JSONIndexError)
        case cancelled
    }

    private func indexJSON(_ bytes: UnsafeRawBufferPointer, allowsSequence: Bool, shouldCancel: () -> Bool,
        progress: (BodyBuildProgress) -> Void) -> JSONOutcome
    {
        var indexer = JSONLineIndexer(bytes: bytes, allowsSequence: allowsSequence)
        var previewSent = false
        do {
            while !indexer.isFinished {
                if shouldCancel() { return .cancelled }
                let isFirstChunk = indexer.position < options.chunkSize
                try indexer.scan(upTo: indexer.position + options.chunkSize)
                if isFirstChunk { indexer.reserveFromDensity() }
                var report = BodyBuildProgress(bytesProcessed: indexer.position, totalBytes: bytes.count)
                if !previewSent, !indexer.isFinished, indexer.position >= options.previewAfterBytes {
                    previewSent = true
                    report.preview = BodyDocument(data: data, contentType: contentType, kind: .json, notices: [],
                        isComplete: false, rootCount: indexer.rootCount, storage: .json(indexer.snapshot()))
                }
                progress(report)
            }
            let index = try indexer.finish()
            return .indexed(index, rootCount: indexer.rootCount, invalidUTF8: indexer.firstInvalidUTF8)
        } catch {
            return .invalid(error)
        }
    }

    private func indexText(_ bytes: UnsafeRawBufferPointer, format: BodyTextFormat, notices: [BodyNotice],
        shouldCancel: () -> Bool, progress: (BodyBuildProgress) -> Void) -> BodyDocumentParts?
    {
        guard bytes.count < Int(UInt32.max) else {
            // Text line starts are 32-bit; a body this large is shown as a hex dump (which needs no index).
            let notice = BodyNotice(kind: .tooLarge, message: "The body is too large for a text view: shown as a hex dump.")
            return parts(.binary, notices + [notice], .binary)
        }
        var index = TextLineIndex(byteCount: bytes.count)
        var validator = UTF8Validation.ChunkValidator()
        var cursor = 0
        while cursor < bytes.count {
            if shouldCancel() { return nil }
            let end = min(bytes.count, cursor + options.chunkSize)
            index.scan(bytes, range: cursor..<end)
            validator.validate(bytes, upTo: end)
            cursor = end
            progress(BodyBuildProgress(bytesProcessed: cursor, totalBytes: bytes.count))
        }
        var notices = notices
        if let first = validator.firstInvalid {
            notices.append(invalidUTF8Notice(bytes, first: first, count: validator.invalidCount))
        }
        return parts(.text(format), notices, .text(index))
    }

    private func invalidUTF8Notice(_ bytes: UnsafeRawBufferPointer, first: Int, count: Int?) -> BodyNotice {
        let (line, column) = Self.lineAndColumn(of: first, in: bytes)
        let places = count.map { $0 == 1 ? "1 place" : "\(BodyNumberFormat.grouped($0)) places" }
        let message = "Invalid UTF-8 at \(line):\(column)" + (places.map { " (\($0))" } ?? "")
            + ", shown as \u{FFFD}."
        return BodyNotice(kind: .invalidUTF8, message: message, line: line, column: column)
    }

    /// 1-based line and byte column of `offset`.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        guard let base = bytes.baseAddress else { return (1, 1) }
        var line = 1
        var lineStart = 0
        while lineStart < end, let found = memchr(base + lineStart, Int32(Byte.newline), end - lineStart) {
            lineStart = base.distance(to: UnsafeRawPointer(found)) + 1
            line += 1
        }
        return (line, end - lineStart + 1)
    }
}
