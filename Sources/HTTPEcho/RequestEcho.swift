import FoundationEssentials
import DispatcherCore
import JSONSupport
import TextSupport

/// What an example with `echo: true` answers, in stub mode and from the mock, as httpbin's
/// `/anything` does: the request as it arrived, with the fields of a form or a multipart body
/// (files by name, type and size, never their bytes), so an upload can be checked end to end.
package enum RequestEcho {
    /// Request bodies past this are echoed by size only.
    package static let bodyLimit = 16 << 20

    /// The echo (pretty JSON) of a request as it came over the wire; `truncated` when its body
    /// passed `bodyLimit` and was not kept.
    package static func body(method: String, uri: String, headers: [(String, String)], body: Data, truncated: Bool) -> Data {
        let mark = uri.firstIndex(of: "?")
        let path = mark.map { String(uri[..<$0]) } ?? uri
        let query = mark.map { String(uri[uri.index(after: $0)...]) } ?? ""
        var members: [(String, JSONValue)] = [
            ("method", .string(method)), ("path", .string(path)),
            ("args", .object(JSONObject(FormEncoding.decode(query).map { (key: $0.name, value: JSONValue.string($0.value ?? "")) }))),
            ("headers", .object(JSONObject(headers.map { (key: $0.0, value: JSONValue.string($0.1)) }))),
        ]
        let contentType = headers.first { $0.0.lowercased() == "content-type" }?.1
        let essence = MediaType.essence(of: contentType)
        if truncated {
            members.append(("size", .string("more than \(ByteCount.format(bodyLimit))")))
        } else if essence == "multipart/form-data", let boundary = boundary(of: contentType) {
            let parts = multipartParts(body, boundary: boundary)
            members.append(("form", .object(JSONObject(parts.filter { $0.filename == nil }.map {
                (key: $0.name, value: JSONValue.string(String(decoding: $0.data, as: UTF8.self)))
            }))))
            members.append(("files", .object(JSONObject(parts.filter { $0.filename != nil }.map { part in
                (key: part.name, value: JSONValue.object([
                    "filename": .string(part.filename ?? ""), "contentType": .string(part.contentType ?? "application/octet-stream"),
                    "size": .integer(part.data.count),
                ]))
            }))))
        } else if essence == "application/x-www-form-urlencoded" {
            let fields = FormEncoding.decode(String(decoding: body, as: UTF8.self))
            members.append(("form", .object(JSONObject(fields.map { (key: $0.name, value: JSONValue.string($0.value ?? "")) }))))
        } else if !body.isEmpty {
            if let json = try? JSONValue.parse(body) {
                members.append(("json", json))
            } else {
                members.append(("data", .string(String(decoding: body.prefix(64 << 10), as: UTF8.self))))
            }
        }
        members.append(("size", .integer(body.count)))
        return Data(JSONValue.object(JSONObject(members.map { (key: $0.0, value: $0.1) })).prettyText().utf8)
    }

    /// The echo of a request a stub answers: its method, target and headers as the transport would
    /// send them, and its body (a streamed one read when it is within `bodyLimit`).
    package static func body(for request: Request) -> Data {
        var headers = request.headers.map { ($0.name, $0.value) }
        var bytes = request.body ?? Data()
        var truncated = false
        if let streamed = request.streamedBody {
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", streamed.contentType)) }
            do throws(StreamedBodyError) {
                bytes = try streamed.collect(limit: bodyLimit)
            } catch {
                truncated = true
            }
        }
        let target = request.url.path(percentEncoded: true) + (request.url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        return body(method: request.method.rawValue, uri: target.isEmpty ? "/" : target, headers: headers, body: bytes, truncated: truncated)
    }

    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var data: Data
    }

    /// `boundary=…` of a multipart Content-Type (quoted or not).
    static func boundary(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmedSpaces.lowercased() == "boundary" else { continue }
            var value = pair[1].trimmedSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts of a multipart body (RFC 7578): each one's name, filename and type from its headers.
    static func multipartParts(_ body: Data, boundary: String) -> [Part] {
        let bytes = [UInt8](body)
        let delimiter = [UInt8]("--\(boundary)".utf8)
        var parts: [Part] = []
        var positions: [Int] = []
        var index = 0
        while let found = find(delimiter, in: bytes, from: index) {
            positions.append(found)
            index = found + delimiter.count
        }
        for (start, end) in zip(positions, positions.dropFirst()) {
            var partStart = start + delimiter.count
            // The closing delimiter is `--boundary--`; every other one ends its line.
            if partStart + 1 < bytes.count, bytes[partStart] == UInt8(ascii: "\r"), bytes[partStart + 1] == UInt8(ascii: "\n") { partStart += 2 }
            var partEnd = end
            if partEnd >= 2, bytes[partEnd - 2] == UInt8(ascii: "\r"), bytes[partEnd - 1] == UInt8(ascii: "\n") { partEnd -= 2 }
            guard partStart <= partEnd, let headerEnd = find([13, 10, 13, 10], in: bytes, from: partStart), headerEnd <= partEnd else { continue }
            let headerText = String(decoding: bytes[partStart..<headerEnd], as: UTF8.self)
            var name: String?
            var filename: String?
            var contentType: String?
            for line in headerText.split(separator: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    name = parameter("name", in: String(line))
                    filename = parameter("filename", in: String(line))
                } else if lower.hasPrefix("content-type:") {
                    contentType = line.dropFirst("content-type:".count).trimmedSpaces
                }
            }
            guard let name else { continue }
            // The blank line may end right at the delimiter's CRLF: an empty body.
            parts.append(Part(name: name, filename: filename, contentType: contentType, data: Data(bytes[min(headerEnd + 4, partEnd)..<partEnd])))
        }
        return parts
    }

    /// `name="value"` in a Content-Disposition line.
    private static func parameter(_ key: String, in line: String) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmedSpaces == key else { continue }
            var value = pair[1].trimmedSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let first = needle[0]
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
