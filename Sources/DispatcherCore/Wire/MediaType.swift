import TextSupport

/// Content types implied by file extensions.
package enum MediaType {
    /// The content type a file's extension implies, if it is a common one.
    package static func forFile(_ path: String) -> String? {
        let utf8 = path.utf8
        let nameStart = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart else { return nil }
        return byExtension[path[utf8.index(after: dot)...].lowercased()]
    }

    /// The media type of a `Content-Type` value, parameters dropped, lowercased (`text/event-stream`).
    package static func essence(of contentType: String?) -> String? {
        contentType?.split(separator: ";", maxSplits: 1).first.map { $0.trimmedSpaces.lowercased() }
    }

    /// Server-Sent Events.
    package static let eventStream = "text/event-stream"

    /// Bodies worth showing as they arrive without `stream:` in the catalog: event streams, NDJSON, JSON Lines.
    package static let streamed: Set = [eventStream, "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"]

    /// `application/octet-stream` when the extension says nothing.
    package static func forFileOrBinary(_ path: String) -> String { forFile(path) ?? "application/octet-stream" }

    private static let byExtension = [
        "json": "application/json", "xml": "application/xml", "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "txt": "text/plain; charset=utf-8", "csv": "text/csv", "yaml": "application/yaml", "yml": "application/yaml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml", "webp": "image/webp",
        "pdf": "application/pdf", "bin": "application/octet-stream", "gz": "application/gzip", "zip": "application/zip",
        "mp4": "video/mp4", "mp3": "audio/mpeg", "wav": "audio/wav",
    ]
}

