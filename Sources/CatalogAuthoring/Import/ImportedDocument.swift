import Catalog
import FoundationEssentials
import JSONSupport
import YAMLSupport

/// Reads the documents importers take, with errors that name the document (`what`). A UTF-8
/// byte-order mark (Visual Studio's `.http` template, Windows editors) is not part of any of them.
package enum ImportedDocument {
    /// The UTF-8 byte-order mark.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `data` without a leading UTF-8 byte-order mark.
    package static func withoutByteOrderMark(_ data: Data) -> Data {
        data.starts(with: byteOrderMark) ? data.dropFirst(byteOrderMark.count) : data
    }

    /// A text document (a `.http` file, GraphQL SDL): UTF-8 without its byte-order mark.
    package static func text(_ data: Data, what: String) throws(AuthoringError) -> String {
        guard let text = String(validating: withoutByteOrderMark(data), as: UTF8.self) else { throw .invalidInput("\(what) is not UTF-8 text") }
        return text
    }

    /// A JSON document.
    static func json(_ data: Data, what: String) throws(AuthoringError) -> JSONValue {
        let data = withoutByteOrderMark(data)
        do {
            return try JSONValue.parse(data)
        } catch {
            throw .invalidInput("\(what) is not JSON: \(error)")
        }
    }

    /// JSON when the first character is `{` and it parses as JSON, YAML otherwise (OpenAPI
    /// documents and Insomnia exports come as either; a YAML file may start with a flow mapping,
    /// `{ name: id, in: path }`).
    static func jsonOrYAML(_ data: Data, what: String) throws(AuthoringError) -> JSONValue {
        let data = withoutByteOrderMark(data)
        if data.first(where: { !$0.isASCIIWhitespace }) == UInt8(ascii: "{") {
            do {
                return try JSONValue.parse(data)
            } catch {
                guard let text = String(validating: data, as: UTF8.self), let root = try? YAMLComposer.compose(text).root?.jsonValue() else {
                    throw .invalidInput("\(what) is not JSON: \(error)")
                }
                return root
            }
        }
        guard let text = String(validating: data, as: UTF8.self) else { throw .invalidInput("\(what) is not UTF-8 text") }
        let root: JSONValue?
        do throws(YAMLSyntaxError) {
            root = try YAMLComposer.compose(text).root?.jsonValue()
        } catch {
            throw .invalidInput("\(what) is neither JSON nor YAML: line \(error.line): \(error.message)")
        }
        guard let root else { throw .invalidInput("\(what) is empty") }
        return root
    }
}
