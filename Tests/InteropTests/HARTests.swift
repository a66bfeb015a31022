import Catalog
import DispatcherCore
import Foundation
import CatalogAuthoring
import DriftCheck
import StateStore
import Testing
import TestTraits
@testable import apiexplorer

/// A strict reader of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): every field the
/// specification marks required, with its type; fails on the first one missing or wrong.
enum HARReader {
    struct Log {
        var entries: [[String: Any]]
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ data: Data) throws -> Log {
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

@Suite(.offPool) struct HARTests {
    func entry(_ mutate: (inout HistoryEntry) -> Void = { _ in }) -> HistoryEntry {
        var entry = HistoryEntry(
            date: Date(timeIntervalSince1970: 1_700_000_000.5), service: "shop", endpoint: "getItem", environment: "local", mode: .live,
            example: nil, values: [:],
            request: RequestRecord(
                method: "POST", url: "https://shop.example.com/items?limit=10&token=••••",
                headers: [HeaderRecord(name: "Content-Type", value: "application/json"), HeaderRecord(name: "Authorization", value: "Bearer ••••")],
                body: BodyRecord(Data(#"{"name":"Lamp"}"#.utf8), contentType: "application/json", redactor: nil, limit: nil)),
            response: ResponseRecord(
                status: 201, statusText: "Created", httpVersion: "HTTP/1.1", headers: [HeaderRecord(name: "Content-Type", value: "application/json")],
                body: BodyRecord(Data(#"{"id":3}"#.utf8), contentType: "application/json", redactor: nil, limit: nil), size: 8, timeMs: 12.5,
                source: "network", url: "https://shop.example.com/items"),
            error: nil)
        mutate(&entry)
        return entry
    }

    @Test func documentIsValidHAR12() throws {
        let failed = entry {
            $0.response = nil
            $0.error = ErrorRecord(kind: "cannotConnect", message: "Connection refused", status: nil)
        }
        let binary = entry {
            $0.response?.body = BodyRecord(Data([0xFF, 0xD8, 0x00]), contentType: "image/jpeg", redactor: nil, limit: nil)
        }
        let text = HARExporter.text([entry(), failed, binary].map(\.harExchange), creatorVersion: "9.9")
        let log = try HARReader.read(Data(text.utf8))
        #expect(log.entries.count == 3)

        let first = log.entries[0]
        #expect((first["startedDateTime"] as? String)?.hasPrefix("2023-11-14T22:13:20.48") == true)
        #expect(first["time"] as? Double == 12.5)
        let request = try #require(first["request"] as? [String: Any])
        #expect(request["queryString"] as? [[String: String]] == [["name": "limit", "value": "10"], ["name": "token", "value": "••••"]])
        #expect((request["postData"] as? [String: Any])?["text"] as? String == #"{"name":"Lamp"}"#)
        let content = try #require((first["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(content["text"] as? String == #"{"id":3}"#)
        let custom = try #require(first["_apiexplorer"] as? [String: Any])
        #expect(custom["service"] as? String == "shop")
        #expect(custom["mode"] as? String == "live")

        let noResponse = try #require(log.entries[1]["response"] as? [String: Any])
        #expect(noResponse["status"] as? Int == 0)
        #expect(((log.entries[1]["_apiexplorer"] as? [String: Any])?["error"] as? [String: Any])?["kind"] as? String == "cannotConnect")

        let binaryContent = try #require((log.entries[2]["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(binaryContent["encoding"] as? String == "base64")
        #expect(Data(base64Encoded: binaryContent["text"] as? String ?? "") == Data([0xFF, 0xD8, 0x00]))
    }

    @Test func emptyHistoryIsAnEmptyLog() throws {
        #expect(try HARReader.read(Data(HARExporter.text([], creatorVersion: "1").utf8)).entries.isEmpty)
    }
}
