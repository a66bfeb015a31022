import FoundationEssentials
import TextSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body read from disk as it is sent — a file, or a multipart form (RFC 7578) with
/// files — described by its pieces in order. Files are measured here, never read: a 2 GB upload
/// costs a chunk of memory at a time, and the length is known for `Content-Length` beforehand.
package struct StreamedBody: Sendable, Hashable {
    /// A run of the body.
    package enum Piece: Sendable, Hashable {
        /// Bytes (a part's boundary and headers, a text field).
        case bytes(Data)
        /// A file's contents, read as they are sent.
        case file(path: String)
    }

    /// The pieces, in order.
    package var pieces: [Piece]
    /// The `Content-Type` (a multipart form's carries its boundary).
    package var contentType: String
    /// Bytes in all, the files measured when the body was described.
    package var length: Int
    /// Files that could not be measured (missing, unreadable): sending fails and says which.
    package var unreadableFiles: [String]
    /// What the body is, for the log, the Request tab and exports: `<file photo.png, 12 kB, image/png>`.
    package var summary: String
    /// The body it was made from (curl and code exports write its fields, not bytes).
    package var source: RequestBody

    /// The streamed form of a file or multipart body; nil for bodies held in memory. A multipart
    /// form gets `boundary`, else a new random one (made only then: every request comes through here).
    package init?(_ body: RequestBody, boundary: String? = nil) {
        source = body
        switch body {
        case .file(let path, let contentType):
            let type = contentType ?? MediaType.forFileOrBinary(path)
            let size = Self.size(of: path)
            pieces = [.file(path: path)]
            self.contentType = type
            length = size ?? 0
            unreadableFiles = size == nil ? [path] : []
            summary = "<file \(path), \(size.map(ByteCount.format) ?? "unreadable"), \(type)>"
        case .multipart(let fields):
            var pieces: [Piece] = []
            var length = 0
            var unreadable: [String] = []
            var described: [String] = []
            let boundary = boundary ?? Self.makeBoundary()
            func add(_ text: String) {
                let data = Data(text.utf8)
                pieces.append(.bytes(data))
                length += data.count
            }
            for field in fields {
                add("--\(boundary)\r\n" + field.headerBlock())
                switch field.content {
                case .text(let text):
                    add(text)
                    described.append("\(field.name)=\(text)")
                case .bytes(let data, _):
                    pieces.append(.bytes(data))
                    length += data.count
                    described.append("\(field.name)=@\(field.filename ?? "") (\(ByteCount.format(data.count)))")
                case .file(let path, _):
                    let size = Self.size(of: path)
                    if size == nil { unreadable.append(path) }
                    pieces.append(.file(path: path))
                    length += size ?? 0
                    described.append("\(field.name)=@\(field.filename ?? path) (\(size.map(ByteCount.format) ?? "unreadable"))")
                }
                add("\r\n")
            }
            add("--\(boundary)--\r\n")
            self.pieces = pieces
            contentType = "multipart/form-data; boundary=\(boundary)"
            self.length = length
            unreadableFiles = unreadable
            summary = "<multipart/form-data: \(described.joined(separator: ", "))>"
        case .none, .json, .data, .text, .form:
            return nil
        }
    }

    /// A boundary no field is likely to contain: 30 random letters and digits after a fixed prefix.
    package static func makeBoundary() -> String {
        let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return "apiexplorer-" + String((0..<30).map { _ in characters.randomElement()! })
    }

    /// The whole body in memory, files read: for small bodies (tests, the mock, exports that must
    /// show bytes). Throws past `limit` bytes or when a file cannot be read.
    package func collect(limit: Int) throws(StreamedBodyError) -> Data {
        guard unreadableFiles.isEmpty else { throw StreamedBodyError.unreadable(unreadableFiles[0]) }
        guard length <= limit else { throw StreamedBodyError.tooLarge(length) }
        var data = Data()
        data.reserveCapacity(length)
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): data.append(bytes)
            case .file(let path):
                guard let contents = FileManager.default.contents(atPath: path) else { throw StreamedBodyError.unreadable(path) }
                data.append(contents)
            }
        }
        return data
    }

    /// A regular file's size; nil when it is missing, unreadable or not a regular file.
    static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, access(path, R_OK) == 0 else { return nil }
        return Int(status.st_size)
    }
}

/// Why a streamed body could not be read.
package enum StreamedBodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file of the body is missing or cannot be read.
    case unreadable(String)
    /// The body is larger than the caller can take in memory.
    case tooLarge(Int)

    package var description: String {
        switch self {
        case .unreadable(let path): "the file \(path) cannot be read"
        case .tooLarge(let length): "the body is \(ByteCount.format(length)), too large to hold in memory"
        }
    }
}
