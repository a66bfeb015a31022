import FoundationEssentials

/// One field of a `multipart/form-data` body (RFC 7578).
public struct MultipartField: Sendable, Hashable {
    /// What the field holds.
    public enum Content: Sendable, Hashable {
        /// Text (placeholders resolved before sending).
        case text(String)
        /// A file read as the body is sent; `filename` is what the server is told (the file's own
        /// name by default).
        case file(path: String, filename: String?)
        /// Bytes sent as a file named `filename` (a small file of the catalogs built into the binary).
        case bytes(Data, filename: String)
    }

    /// The field's name.
    public var name: String
    /// Its content.
    public var content: Content
    /// Its `Content-Type`: for a file, the extension's unless given; text fields have none unless given.
    public var contentType: String?

    /// Makes a field.
    public init(name: String, content: Content, contentType: String? = nil) {
        self.name = name
        self.content = content
        self.contentType = contentType
    }

    /// The filename sent for a file field.
    public var filename: String? {
        switch content {
        case .text: nil
        case .file(let path, let filename): filename ?? (path.split(separator: "/").last.map(String.init) ?? path)
        case .bytes(_, let filename): filename
        }
    }

    /// The `Content-Type` its part is sent with: given, a file's from its extension, none for text.
    public var headerContentType: String? {
        switch content {
        case .text: contentType
        case .file(let path, _): contentType ?? MediaType.forFileOrBinary(path)
        case .bytes(_, let filename): contentType ?? MediaType.forFileOrBinary(filename)
        }
    }

    /// The part's header block: `Content-Disposition` with the name (and filename), then its
    /// `Content-Type` when it has one. Quotes, CR and LF in names are percent-encoded as RFC 7578
    /// §4.2 and browsers do (`"` → `%22`), so a name can never end the header early.
    public func headerBlock() -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(name))\""
        if let filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
        var block = disposition + "\r\n"
        if let type = headerContentType { block += "Content-Type: \(type)\r\n" }
        return block + "\r\n"
    }

    static func quoted(_ text: String) -> String {
        text.replacing("\"", with: "%22").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }
}
