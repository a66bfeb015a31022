import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
import CatalogAuthoring
import StateStore
import Testing
import TestTraits

/// The history written as HAR 1.2 (`export har`), read back by a strict reader of the specification.
@Suite(.offPool) struct HARExportTests {
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
        #expect(try HARReader.read(Data(HARExporter.text([HARExchange](), creatorVersion: "1").utf8)).entries.isEmpty)
    }
}
