/// What a Content-Type header claims a body is.
import TextSupport
enum DeclaredContent: Sendable, Hashable {
    case json
    /// Newline-delimited JSON (several top-level values).
    case jsonSequence
    case text(BodyTextFormat)
    case binary
    /// No header, or a type we do not know.
    case unknown

    /// Reads a Content-Type header value (`application/json; charset=utf-8`).
    init(contentType: String?) {
        guard let contentType else {
            self = .unknown
            return
        }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmedSpaces.lowercased()
        } ?? ""
        let parts = mediaType.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            self = .unknown
            return
        }
        let (type, subtype) = (parts[0], parts[1])
        switch subtype {
        case "x-ndjson", "ndjson", "jsonl", "x-jsonlines", "jsonlines", "json-seq":
            self = .jsonSequence
            return
        case "json", "x-json": self = .json; return
        case "xhtml+xml", "html": self = .text(.html); return
        case "xml": self = .text(.xml); return
        default: break
        }
        if subtype.hasSuffix("+json") {
            self = .json
        } else if subtype.hasSuffix("+xml") {
            self = .text(.xml)
        } else if type == "text" {
            self = .text(.plain)
        } else if ["image", "audio", "video", "font"].contains(type) {
            self = .binary
        } else if type == "application" {
            let textual: Set = [
                "javascript", "x-javascript", "ecmascript", "x-www-form-urlencoded", "yaml", "x-yaml", "graphql",
                "sql", "csv", "x-sh", "toml", "problem", "x-httpd-php",
            ]
            let binary: Set = [
                "octet-stream", "pdf", "zip", "gzip", "x-gzip", "x-tar", "x-protobuf", "protobuf", "grpc",
                "wasm", "msgpack", "x-msgpack", "cbor", "vnd.ms-excel", "x-bzip2", "x-7z-compressed",
            ]
            if textual.contains(subtype) {
                self = .text(.plain)
            } else if binary.contains(subtype) || subtype.hasPrefix("vnd.") {
                self = .binary
            } else {
                self = .unknown
            }
        } else {
            self = .unknown
        }
    }

    /// Whether the header claims a JSON body.
    var isJSON: Bool { self == .json || self == .jsonSequence }
}

/// Looks at a body's first bytes to tell JSON, markup, text and binary apart.
enum BodySniffer {
    /// How many leading bytes the binary test looks at.
    static let sampleSize = 8192

    /// Whether the bytes look binary: any NUL, more than 10% control bytes, or more than 30% of the sample
    /// in ill-formed UTF-8 (so Latin-1 text with accents still reads as text).
    static func looksBinary(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let end = min(bytes.count, sampleSize)
        guard end > 0 else { return false }
        var controls = 0
        var illFormed = 0
        var cursor = 0
        while cursor < end {
            let byte = bytes[cursor]
            if byte == 0 { return true }
            if byte < 0x80 {
                let allowedControl = byte == Byte.tab || byte == Byte.newline || byte == Byte.carriageReturn
                    || byte == 0x0C || byte == 0x1B
                if (byte < 0x20 && !allowedControl) || byte == 0x7F { controls += 1 }
                cursor += 1
            } else {
                let length = UTF8Validation.sequenceLength(bytes, at: cursor)
                // A sequence cut by the end of the sample is not held against the body.
                if length == 0 && cursor + 4 < bytes.count { illFormed += 1 }
                cursor += max(length, 1)
            }
        }
        return controls * 10 > end || illFormed * 10 > end * 3
    }

    /// The first byte that is not whitespace or a UTF-8 byte order mark, if any.
    static func firstSignificantByte(_ bytes: UnsafeRawBufferPointer) -> UInt8? {
        var cursor = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while cursor < bytes.count {
            if !Byte.isWhitespace(bytes[cursor]) { return bytes[cursor] }
            cursor += 1
        }
        return nil
    }

    /// XML or HTML when the body opens with `<?xml`, `<!DOCTYPE html`, `<html` (or another `<!DOCTYPE`).
    static func markup(_ bytes: UnsafeRawBufferPointer) -> BodyTextFormat? {
        var cursor = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while cursor < bytes.count, Byte.isWhitespace(bytes[cursor]) { cursor += 1 }
        let prefix = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[cursor..<min(bytes.count, cursor + 16)]),
            as: UTF8.self
        ).lowercased()
        if prefix.hasPrefix("<!doctype html") || prefix.hasPrefix("<html") { return .html }
        if prefix.hasPrefix("<?xml") || prefix.hasPrefix("<!doctype") { return .xml }
        return nil
    }
}
