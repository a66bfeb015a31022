import Foundation

/// A strict reader of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): every field the
/// specification marks required, with its type; fails on the first one missing or wrong.
package enum HARReader {
    package struct Log {
        package var entries: [[String: Any]]
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package static func read(_ data: Data) throws -> Log {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any], let log = root["log"] as? [String: Any] else {
            throw Invalid(description: "no log object")
        }
        try string(log, "version", equal: "1.2")
        let creator = try object(log, "creator")
        try string(creator, "name")
        try string(creator, "version")
        guard let entries = log["entries"] as? [[String: Any]] else { throw Invalid(description: "log.entries is not an array of objects") }
        for entry in entries { try check(entry: entry) }
        return Log(entries: entries)
    }

    static func check(entry: [String: Any]) throws {
        let started = try string(entry, "startedDateTime")
        guard (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(started)) != nil else {
            throw Invalid(description: "startedDateTime \(started) is not ISO 8601")
        }
        try number(entry, "time")
        let request = try object(entry, "request")
        for key in ["method", "url", "httpVersion"] { try string(request, key) }
        try pairs(request, "cookies", allowEmpty: true)
        try pairs(request, "headers")
        try pairs(request, "queryString")
        try number(request, "headersSize")
        try number(request, "bodySize")
        if let post = request["postData"] as? [String: Any] {
            try string(post, "mimeType")
            guard post["text"] is String || post["params"] is [Any] else { throw Invalid(description: "postData has neither text nor params") }
        }
        let response = try object(entry, "response")
        try number(response, "status")
        for key in ["statusText", "httpVersion", "redirectURL"] { try string(response, key) }
        try pairs(response, "cookies", allowEmpty: true)
        try pairs(response, "headers")
        let content = try object(response, "content")
        try number(content, "size")
        try string(content, "mimeType")
        if let encoding = content["encoding"] as? String, encoding == "base64", let text = content["text"] as? String {
            guard Data(base64Encoded: text) != nil else { throw Invalid(description: "content.text is not base64") }
        }
        try number(response, "headersSize")
        try number(response, "bodySize")
        _ = try object(entry, "cache")
        let timings = try object(entry, "timings")
        for key in ["send", "wait", "receive"] {
            guard try number(timings, key) >= 0 else { throw Invalid(description: "timings.\(key) is negative") }
        }
    }

    @discardableResult
    static func string(_ object: [String: Any], _ key: String, equal expected: String? = nil) throws -> String {
        guard let value = object[key] as? String else { throw Invalid(description: "\(key) is not a string") }
        if let expected, value != expected { throw Invalid(description: "\(key) is \(value), not \(expected)") }
        return value
    }

    @discardableResult
    static func number(_ object: [String: Any], _ key: String) throws -> Double {
        guard let value = object[key] as? NSNumber else { throw Invalid(description: "\(key) is not a number") }
        return value.doubleValue
    }

    static func object(_ object: [String: Any], _ key: String) throws -> [String: Any] {
        guard let value = object[key] as? [String: Any] else { throw Invalid(description: "\(key) is not an object") }
        return value
    }

    static func pairs(_ object: [String: Any], _ key: String, allowEmpty: Bool = true) throws {
        guard let list = object[key] as? [[String: Any]] else { throw Invalid(description: "\(key) is not an array of objects") }
        for item in list where !(item["name"] is String && item["value"] is String) {
            throw Invalid(description: "an item of \(key) lacks name or value")
        }
    }
}
