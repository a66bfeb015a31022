import Foundation
import JSONSupport

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

    /// The bytes to send and the content type they imply.
    public func encoded() -> (data: Data?, contentType: String?) {
        switch self {
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
    /// Characters left as they are (RFC 3986 unreserved).
    static let unreserved: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// Percent-encodes one name or value.
    public static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Encodes items as `a=1&b=two%20words`.
    public static func encode(_ items: [QueryItem]) -> String {
        items.map { item in
            item.value.map { "\(escape(item.name))=\(escape($0))" } ?? escape(item.name)
        }.joined(separator: "&")
    }

    /// Decodes `a=1&b=two+words` into items (`+` is read as a space, as forms write it).
    public static func decode(_ text: String) -> [QueryItem] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            return QueryItem(name: unescape(parts[0]), value: parts.count > 1 ? unescape(parts[1]) : nil)
        }
    }
}
