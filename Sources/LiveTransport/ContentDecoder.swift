import CZlib
import NIOCore
import TextSupport

/// Decodes a `gzip` or `deflate` body as it arrives, handing out the decoded bytes a bounded
/// piece at a time, so the collector counts every decoded byte and stops the decoder at the cap:
/// a gzip bomb costs the cap and one piece, never a decompressed burst of the whole input
/// (AsyncHTTPClient's decompressor inflates each received buffer whole, 1,000× its size for zeros).
/// Stacked codings (`Content-Encoding: gzip, gzip`, applied in the order listed) are undone last
/// first, as curl undoes them, each stage's pieces fed to the next, up to curl's five.
/// Unchecked Sendable: only the collector's callbacks use it, which AsyncHTTPClient calls one at a
/// time on the request's event loop.
final class ContentDecoder: @unchecked Sendable {
    /// The largest piece handed out at once.
    static let pieceSize = 256 << 10
    /// The most codings undone (curl's limit too).
    static let maximumStages = 5

    /// Why a body could not be decoded.
    struct Failure: Error, Sendable {
        var message: String
    }

    /// The stages, the last coding applied first.
    private let stages: [InflateStage]

    /// A decoder for the response's `Content-Encoding`; nil when the body is not coded, or coded
    /// in a way not undone here (`br`, more than five codings): its bytes are kept as they came.
    init?(contentEncoding: String?) {
        guard let contentEncoding else { return nil }
        let codings = contentEncoding.lowercased().split(separator: ",").map { String($0).trimmedSpaces }.filter { $0 != "identity" && !$0.isEmpty }
        guard !codings.isEmpty, codings.count <= Self.maximumStages, codings.allSatisfy({ ["gzip", "x-gzip", "deflate"].contains($0) }) else { return nil }
        stages = codings.reversed().map(InflateStage.init)
    }

    /// Decodes `input`, calling `emit` with each decoded piece (at most `pieceSize` bytes) until it
    /// returns false (the cap is reached): then the rest of the input is left undecoded.
    func decode(_ input: ByteBuffer, emit: (UnsafeRawBufferPointer) -> Bool) throws(Failure) {
        var stopped = false
        try decode(input, stage: 0) { piece in
            stopped = !emit(piece)
            return !stopped
        }
    }

    /// Runs `input` through the stages from `stage` on.
    private func decode(_ input: ByteBuffer, stage: Int, emit: (UnsafeRawBufferPointer) -> Bool) throws(Failure) {
        guard stage + 1 < stages.count else { return try stages[stage].decode(input, emit: emit) }
        var failure: Failure?
        try stages[stage].decode(input) { piece in
            var next = ByteBufferAllocator().buffer(capacity: piece.count)
            next.writeBytes(piece)
            var going = true
            do throws(Failure) {
                try decode(next, stage: stage + 1) { inner in
                    going = emit(inner)
                    return going
                }
            } catch {
                failure = error
                return false
            }
            return going
        }
        if let failure { throw failure }
    }
}

/// One coding undone by zlib: gzip (members one after another) or deflate (zlib's wrapper or raw).
private final class InflateStage {
    private let stream: UnsafeMutablePointer<z_stream>
    private let coding: String
    private var started = false
    private var ended = false
    private let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: ContentDecoder.pieceSize, alignment: 1)
    typealias Failure = ContentDecoder.Failure

    init(_ coding: String) {
        self.coding = coding
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        piece.deallocate()
    }

    /// Decodes `input`, calling `emit` with each decoded piece (at most `pieceSize` bytes) until it
    /// returns false (the cap is reached): then the rest of the input is left undecoded.
    func decode(_ input: ByteBuffer, emit: (UnsafeRawBufferPointer) -> Bool) throws(Failure) {
        var input = input
        while input.readableBytes > 0 {
            if !started { try start(peeking: input) }
            if ended {
                // Data after the end of a gzip member: another member (as gzip allows), else garbage.
                guard coding != "deflate" else { return }
                inflateReset(stream)
                ended = false
            }
            let outcome: (consumed: Int, status: Int32, produced: Int) = input.withUnsafeReadableBytes { bytes in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
                stream.pointee.avail_in = uInt(bytes.count)
                stream.pointee.next_out = piece.bindMemory(to: Bytef.self).baseAddress
                stream.pointee.avail_out = uInt(piece.count)
                let status = inflate(stream, Z_NO_FLUSH)
                return (bytes.count - Int(stream.pointee.avail_in), status, piece.count - Int(stream.pointee.avail_out))
            }
            input.moveReaderIndex(forwardBy: outcome.consumed)
            switch outcome.status {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END: ended = true
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(outcome.status)"
                throw Failure(message: "the \(coding) data is damaged (\(reason))")
            }
            if outcome.produced > 0, !emit(UnsafeRawBufferPointer(rebasing: piece[..<outcome.produced])) { return }
            if outcome.consumed == 0, outcome.produced == 0, !ended { return }
        }
    }

    /// Sets zlib up for the coding: gzip's header, or for `deflate` zlib's wrapper or raw deflate
    /// (servers send both), told apart by the first two bytes (RFC 1950's check).
    private func start(peeking input: ByteBuffer) throws(Failure) {
        var windowBits: Int32 = 15 + 16
        if coding == "deflate" {
            let first = input.getInteger(at: input.readerIndex, as: UInt8.self) ?? 0
            let second = input.getInteger(at: input.readerIndex + 1, as: UInt8.self) ?? 0
            let isZlib = first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
            windowBits = isZlib ? 15 : -15
        }
        let status = inflateInit2_(stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(message: "zlib could not start (\(status))") }
        started = true
    }
}
