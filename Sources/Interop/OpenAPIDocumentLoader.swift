import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document, JSON or YAML, into OpenAPIKit's 3.1 model (3.0
/// documents are converted).
enum OpenAPIDocumentLoader {
    private struct VersionProbe: Decodable {
        var openapi: String?
        var swagger: String?
    }

    static func load(_ data: Data) throws(InteropError) -> (document: OpenAPIKit.OpenAPI.Document, version: String) {
        let isJSON = data.first { !$0.isASCIIWhitespace } == UInt8(ascii: "{")
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if isJSON { return try JSONDecoder().decode(type, from: data) }
            return try YAMLDecoder().decode(type, from: data)
        }
        let probe: VersionProbe
        do {
            probe = try decode(VersionProbe.self)
        } catch {
            throw .invalidInput("the document is not \(isJSON ? "JSON" : "YAML") OpenAPI can be read from: \(error)")
        }
        if let swagger = probe.swagger { throw .invalidInput("this is a Swagger \(swagger) document; convert it to OpenAPI 3 first") }
        guard let version = probe.openapi else { throw .invalidInput("the document has no 'openapi' version field") }
        do {
            if version.hasPrefix("3.0") {
                return (try decode(OpenAPIKit30.OpenAPI.Document.self).convert(to: .v3_1_1), version)
            }
            if version.hasPrefix("3.1") || version.hasPrefix("3.2") {
                return (try decode(OpenAPIKit.OpenAPI.Document.self), version)
            }
        } catch {
            throw .invalidInput("the OpenAPI \(version) document cannot be read: \(error)")
        }
        throw .invalidInput("OpenAPI \(version) is not supported (3.0, 3.1 and 3.2 are)")
    }
}

extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
