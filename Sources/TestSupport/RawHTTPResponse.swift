import Foundation
import NIOHTTP1

/// An HTTP/1.x response parsed from raw bytes, keeping the wire details an HTTP client hides:
/// chunk sizes, and whether the body was complete.
package struct RawHTTPResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The version from the status line, e.g. `HTTP/1.1`.
    package var version: String
    /// The headers in wire order.
    package var headers: HTTPHeaders
    /// The body bytes received (de-chunked).
    package var body: [UInt8]
    /// The size of each data chunk, when the body was chunked (the terminating 0 not included).
    package var chunkSizes: [Int]?
    /// Whether the whole body arrived (Content-Length reached, or the terminating chunk seen).
    /// A close-delimited body counts as complete.
    package var isComplete: Bool
    /// The number of bytes this response occupied on the wire.
    package var wireLength: Int

    /// The body as UTF-8 text.
    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Parses the response at the start of `bytes`, or nil if not even the head has arrived.
    /// Pass `toHEAD` for a response to HEAD (it has no body whatever its headers say).
    package init?(parsing bytes: some Collection<UInt8>, toHEAD: Bool = false) {
        let bytes = Array(bytes)
        guard let headEnd = Self.find([13, 10, 13, 10], in: bytes, from: 0) else { return nil }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        self.version = String(statusLine[0])
        self.status = status
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        self.headers = headers
        let bodyStart = headEnd + 4

        if toHEAD || (100..<200).contains(status) || status == 204 || status == 304 {
            (body, chunkSizes, isComplete, wireLength) = ([], nil, true, bodyStart)
        } else if headers[canonicalForm: "Transfer-Encoding"].contains(where: { $0.lowercased() == "chunked" }) {
            (body, chunkSizes, isComplete, wireLength) = Self.dechunk(bytes, from: bodyStart)
        } else if let lengthText = headers.first(name: "Content-Length"), let length = Int(lengthText) {
            let available = min(length, bytes.count - bodyStart)
            body = Array(bytes[bodyStart..<(bodyStart + available)])
            (chunkSizes, isComplete, wireLength) = (nil, available == length, bodyStart + available)
        } else {
            (body, chunkSizes, isComplete, wireLength) = (Array(bytes[bodyStart...]), nil, true, bytes.count)
        }
    }

    /// Parses consecutive (pipelined or keep-alive) responses until the bytes run out.
    package static func parseAll(_ bytes: [UInt8]) -> [RawHTTPResponse] {
        var responses: [RawHTTPResponse] = []
        var rest = bytes[...]
        while !rest.isEmpty, let response = RawHTTPResponse(parsing: rest) {
            responses.append(response)
            guard response.isComplete, response.wireLength > 0 else { break }
            rest = rest.dropFirst(response.wireLength)
        }
        return responses
    }

    /// A `stopWhen` for `RawTestClient.exchange`: stop once one complete response arrived.
    package static let oneComplete: @Sendable ([UInt8]) -> Bool = { bytes in
        guard let response = RawHTTPResponse(parsing: bytes) else { return false }
        // A close-delimited body is only complete when the server closes.
        return response.isComplete
            && (response.chunkSizes != nil || response.headers.contains(name: "Content-Length") || response.body.isEmpty)
    }

    private static func dechunk(_ bytes: [UInt8], from start: Int) -> ([UInt8], [Int], Bool, Int) {
        var body: [UInt8] = []
        var sizes: [Int] = []
        var position = start
        while let lineEnd = find([13, 10], in: bytes, from: position) {
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { break }
            let dataStart = lineEnd + 2
            if size == 0 {
                // Trailers (none expected) end with an empty line.
                guard let trailerEnd = find([13, 10], in: bytes, from: dataStart) else { break }
                return (body, sizes, true, trailerEnd + 2)
            }
            guard dataStart + size + 2 <= bytes.count else {
                body += bytes[dataStart..<min(dataStart + size, bytes.count)]
                break
            }
            body += bytes[dataStart..<(dataStart + size)]
            sizes.append(size)
            position = dataStart + size + 2
        }
        return (body, sizes, false, bytes.count)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
