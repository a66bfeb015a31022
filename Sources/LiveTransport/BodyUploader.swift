import AsyncHTTPClient
import DispatcherCore
import FoundationEssentials
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a streamed request body: its byte pieces as they are, its files read a chunk at a time
/// and written before the next chunk is read, so memory holds one chunk whatever the file's size.
/// Each chunk is read on the event loop with `pread` (a local file keeps up with the network) and the
/// next is scheduled, not called, so a long body never deepens the stack.
final class BodyUploader: @unchecked Sendable {
    /// Bytes read from a file at a time.
    static let chunkSize = 256 << 10

    private let body: StreamedBody
    private let writer: HTTPClient.Body.StreamWriter
    private let progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)?
    // Touched only from the event loop the writes complete on, one step at a time.
    private var pieceIndex = 0
    private var descriptor: Int32 = -1
    private var fileOffset: Int64 = 0
    private var sent = 0

    init(body: StreamedBody, writer: HTTPClient.Body.StreamWriter, progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)?) {
        self.body = body
        self.writer = writer
        self.progress = progress
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Writes every piece; the future completes when the last chunk was written.
    func start() -> EventLoopFuture<Void> {
        let first: ByteBuffer?
        do {
            first = try nextChunk()
        } catch {
            // The writer's future gives the event loop to fail on.
            return writer.write(.byteBuffer(ByteBuffer())).flatMapThrowing { throw error }
        }
        guard let first else { return writer.write(.byteBuffer(ByteBuffer())) }
        let written = writer.write(.byteBuffer(first))
        let promise = written.eventLoop.makePromise(of: Void.self)
        whenWritten(written, count: first.readableBytes, promise)
        return promise.futureResult
    }

    /// After a chunk is written: count it, then read and write the next on a new turn of the loop.
    private func whenWritten(_ written: EventLoopFuture<Void>, count: Int, _ promise: EventLoopPromise<Void>) {
        written.whenComplete { result in
            switch result {
            case .success:
                self.sent += count
                self.progress?(self.sent, self.body.length)
                promise.futureResult.eventLoop.execute { self.step(promise) }
            case .failure(let error):
                promise.fail(error)
            }
        }
    }

    private func step(_ promise: EventLoopPromise<Void>) {
        let chunk: ByteBuffer?
        do {
            chunk = try nextChunk()
        } catch {
            promise.fail(error)
            return
        }
        guard let chunk else {
            promise.succeed(())
            return
        }
        whenWritten(writer.write(.byteBuffer(chunk)), count: chunk.readableBytes, promise)
    }

    /// The next chunk to write, nil at the end.
    private func nextChunk() throws(TransportError) -> ByteBuffer? {
        while pieceIndex < body.pieces.count {
            switch body.pieces[pieceIndex] {
            case .bytes(let data):
                pieceIndex += 1
                if !data.isEmpty { return ByteBuffer(bytes: data) }
            case .file(let path):
                if descriptor < 0 {
                    descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    fileOffset = 0
                    guard descriptor >= 0 else {
                        throw TransportError(.unknown, message: "The file \(path) of the request body could not be opened: \(String(cString: strerror(errno))).")
                    }
                }
                var buffer = ByteBuffer()
                buffer.reserveCapacity(Self.chunkSize)
                let fd = descriptor
                let offset = fileOffset
                let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.chunkSize) { pointer in
                    max(0, pread(fd, pointer.baseAddress, Self.chunkSize, off_t(offset)))
                }
                if read > 0 {
                    fileOffset += Int64(read)
                    return buffer
                }
                close(descriptor)
                descriptor = -1
                pieceIndex += 1
            }
        }
        return nil
    }
}
