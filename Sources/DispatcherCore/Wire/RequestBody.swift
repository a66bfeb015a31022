import FoundationEssentials
import JSONSupport
import TextSupport

/// What a request sends as its body.
public enum RequestBody: Sendable, Hashable {
    /// No body.
    case none
    /// A JSON document (`Content-Type: application/json`).
    case json(JSONValue)
    /// Raw bytes with an optional content type.
    case data(Data, contentType: String?)
    /// Text with an optional content type (default `text/plain; charset=utf-8`).
    case text(String, contentType: String?)
    /// A form, `application/x-www-form-urlencoded`.
    case form([QueryItem])
    /// A file sent as it is, read from disk as it is sent; the content type from the extension
    /// unless given.
    case file(path: String, contentType: String?)
    /// A `multipart/form-data` form (RFC 7578): text fields and files, files read as they are sent.
    case multipart([MultipartField])

    /// The bytes to send and the content type they imply. A file or multipart body has no bytes
    /// here: it is read as it is sent (`StreamedBody`).
    public func encoded() -> (data: Data?, contentType: String?) {
        switch self {
        case .file(let path, let contentType): (nil, contentType ?? MediaType.forFile(path))
        case .multipart: (nil, "multipart/form-data")
        case .none: (nil, nil)
        case .json(let value): (Data(value.compactText.utf8), "application/json")
        case .data(let data, let contentType): (data, contentType)
        case .text(let text, let contentType): (Data(text.utf8), contentType ?? "text/plain; charset=utf-8")
        case .form(let items): (Data(FormEncoding.encode(items).utf8), "application/x-www-form-urlencoded")
        }
    }
}

/// Percent-encoding for query strings and form bodies.
public enum FormEncoding {
    /// Percent-encodes one name or value (everything but RFC 3986 unreserved characters).
    public static func escape(_ text: String) -> String {
        let bytes = text.utf8
        let unreserved = bytes.withContiguousStorageIfAvailable { $0.allSatisfy(isUnreserved) } ?? bytes.allSatisfy(isUnreserved)
        if unreserved { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3)
        append(escaping: text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` percent-encoded.
    static func append(escaping text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Encodes items as `a=1&b=two%20words`.
    public static func encode(_ items: [QueryItem]) -> String {
        var bytes: [UInt8] = []
        append(items, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends items encoded as `a=1&b=two%20words` (appended in place: every request with a query
    /// comes through here).
    static func append(_ items: [QueryItem], to bytes: inout [UInt8]) {
        for (position, item) in items.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: "&")) }
            append(escaping: item.name, to: &bytes)
            if let value = item.value {
                bytes.append(UInt8(ascii: "="))
                append(escaping: value, to: &bytes)
            }
        }
    }

    /// Decodes `a=1&b=two+words` into items (`+` is read as a space, as forms write it).
    public static func decode(_ text: String) -> [QueryItem] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                PercentEncoding.decode(String(part).replacing("+", with: " ")) ?? String(part)
            }
            return QueryItem(name: unescape(parts[0]), value: parts.count > 1 ? unescape(parts[1]) : nil)
        }
    }
}
