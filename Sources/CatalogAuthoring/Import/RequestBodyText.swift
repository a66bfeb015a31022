import TextSupport
import JSONSupport

/// Request bodies written as text in collections and `.http` files, made into catalog bodies.
enum RequestBodyText {
    /// JSON when it parses and the content type allows it, a url-encoded form for form content,
    /// else the text as written (placeholders inside JSON strings stay placeholders).
    static func body(_ text: String, contentType: String?) -> CatalogDraft.Body {
        let type = contentType?.lowercased() ?? ""
        if type.contains("x-www-form-urlencoded") {
            return .form(RequestURL.queryItems(Substring(text.trimmed)).map { ($0.name, $0.value ?? "") })
        }
        if type.isEmpty || type.contains("json"), let value = try? JSONValue.parse(text), value.isContainer {
            return .json(value)
        }
        return .text(text)
    }

    /// The content type Postman's raw body language stands for.
    static func contentType(language: String) -> String? {
        switch language.lowercased() {
        case "json": "application/json"
        case "xml": "application/xml"
        case "html": "text/html"
        case "javascript": "application/javascript"
        case "text": "text/plain"
        default: nil
        }
    }

    /// The boundary of multipart bodies made by imports (fixed, so imports are reproducible).
    static let boundary = "apiexplorer-form-boundary"

    /// A `multipart/form-data` body of text fields (RFC 7578) and its Content-Type.
    static func multipart(_ fields: [(String, String)]) -> (text: String, contentType: String) {
        var text = ""
        for (name, value) in fields {
            let quoted = name.replacing("\"", with: "%22")
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted)\"\r\n\r\n\(value)\r\n"
        }
        text += "--\(boundary)--\r\n"
        return (text, "multipart/form-data; boundary=\(boundary)")
    }
}

extension JSONValue {
    /// An object or an array (a bare string or number body is text).
    var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
