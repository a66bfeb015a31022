import Catalog
import FoundationEssentials
import Sessions

extension HistoryEntry {
    /// Writes the entry `call --json` prints for `outcome`, in pieces, with the response body
    /// streamed from the response's bytes (escaped, or base64, a chunk at a time) rather than held
    /// as text: a body near the size cap is kept once, not copied into a string, an encoded JSON
    /// document, a parsed value and a pretty-printed text. Same output as `jsonText(pretty:)` of
    /// `HistoryEntry(outcome, forHistory: false, date:)`.
    package static func writeJSON(_ outcome: CallOutcome, date: Date, pretty: Bool, to write: (Data) -> Void) {
        // The envelope is made with an empty body, then the body goes where its marker is.
        var entry = HistoryEntry(
            exchange: outcome.exchange, call: outcome.call, redactor: outcome.redactor, redactResponseBody: false, bodyLimit: 0, date: date)
        guard let response = outcome.exchange.response, entry.response != nil else {
            write(Data((entry.jsonText(pretty: pretty) + "\n").utf8))
            return
        }
        // Known secret values are masked (a copy is made only when the body holds one).
        let body = outcome.redactor.data(response.body)
        let marker = "apiexplorer-streamed-body-\(UUID().uuidString)"
        let isText = StreamedBody.isUTF8(body)
        entry.response?.body = BodyRecord(text: marker, encoding: isText ? .utf8 : .base64, size: body.count, truncated: response.isTruncated)
        let envelope = Array(entry.jsonText(pretty: pretty).utf8)
        let quoted = Array("\"\(marker)\"".utf8)
        guard let at = envelope.indices.first(where: { envelope[$0...].starts(with: quoted) }) else {
            write(Data((HistoryEntry(outcome, forHistory: false, date: date).jsonText(pretty: pretty) + "\n").utf8))
            return
        }
        write(Data(envelope[..<(at + 1)]))
        if isText { StreamedBody.writeEscaped(body, to: write) } else { StreamedBody.writeBase64(body, to: write) }
        write(Data(envelope[(at + quoted.count - 1)...]) + Data("\n".utf8))
    }
}

/// A body written into JSON a chunk at a time.
enum StreamedBody {
    /// How many bytes are handled at once.
    static let chunkSize = 1 << 20

    /// Whether `data` is valid UTF-8, checked a chunk at a time (chunks end before a character starts).
    static func isUTF8(_ data: Data) -> Bool {
        var valid = true
        forEachChunk(of: data, alignedTo: { $0 & 0xC0 != 0x80 }) { chunk in
            if valid, String(validating: chunk, as: UTF8.self) == nil { valid = false }
        }
        return valid
    }

    /// Writes UTF-8 `data` as the inside of a JSON string: `"`, `\` and control characters escaped
    /// as `JSONValue.writeQuoted` does, everything else as is.
    static func writeEscaped(_ data: Data, to write: (Data) -> Void) {
        forEachChunk(of: data, alignedTo: { _ in true }) { chunk in
            chunk.withUnsafeBytes { bytes in
                var output: [UInt8] = []
                output.reserveCapacity(bytes.count + 64)
                var run = 0  // start of the bytes copied as they are
                for index in 0..<bytes.count {
                    let byte = bytes[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
                    output.append(contentsOf: escapes[Int(byte)])
                    run = index + 1
                }
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<bytes.count]))
                write(Data(output))
            }
        }
    }

    /// The escape of each byte that needs one (`\"`, `\\`, `\n` …, `\u001f`), made once.
    private static let escapes: [[UInt8]] = (0..<256).map { value in
        let hex = Array("0123456789abcdef".utf8)
        switch value {
        case 0x22: return Array(#"\""#.utf8)
        case 0x5C: return Array(#"\\"#.utf8)
        case 0x0A: return Array(#"\n"#.utf8)
        case 0x0D: return Array(#"\r"#.utf8)
        case 0x09: return Array(#"\t"#.utf8)
        case 0x08: return Array(#"\b"#.utf8)
        case 0x0C: return Array(#"\f"#.utf8)
        case 0..<0x20: return Array(#"\u00"#.utf8) + [hex[value >> 4], hex[value & 0xF]]
        default: return []
        }
    }

    /// Writes `data` as base64, in chunks of a multiple of 3 bytes so the pieces join up.
    static func writeBase64(_ data: Data, to write: (Data) -> Void) {
        let step = chunkSize - chunkSize % 3
        var start = data.startIndex
        while start < data.endIndex {
            let end = min(start + step, data.endIndex)
            write(Data(data[start..<end].base64EncodedString().utf8))
            start = end
        }
    }

    /// Calls `body` with consecutive chunks of about `chunkSize` bytes; each chunk but the last
    /// ends just before a byte for which `isBoundary` holds (at most 3 bytes back).
    private static func forEachChunk(of data: Data, alignedTo isBoundary: (UInt8) -> Bool, _ body: (Data.SubSequence) -> Void) {
        var start = data.startIndex
        while start < data.endIndex {
            var end = min(start + chunkSize, data.endIndex)
            var back = 0
            while end < data.endIndex, back < 3, !isBoundary(data[end]) {
                end -= 1
                back += 1
            }
            body(data[start..<end])
            start = end
        }
    }
}
