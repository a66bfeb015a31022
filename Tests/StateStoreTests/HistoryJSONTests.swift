import Foundation
import JSONSupport
@testable import StateStore
import Testing
import TestTraits

/// A history record is written without `JSONEncoder` (`HistoryEntry.json`): it must be the very
/// document the encoder writes, and read back by the Codable conformances as the same entry.
@Suite(.offPool) struct HistoryJSONTests {
    static let date = Date(timeIntervalSince1970: 1_764_151_200.5)  // written to the millisecond, so read back exactly

    /// Every field set, every optional present, text that needs escaping.
    static let full = HistoryEntry(
        id: "7C1A0E52-4C1B-4D2B-9C1E-2F1A7B3C9D10", date: date, service: "shop", endpoint: "getItem", environment: "local",
        mode: .live, example: "notFound", values: ["id": "7", "token": "••••••", "query": "a/b \"quoted\"\n\u{1}é", "B": "upper", "a": "lower", "id10": "x", "id2": "y", "é": "z"],
        request: {
            var request = RequestRecord(
                method: "POST", url: "https://example.com/items/7?q=a%2Fb",
                headers: [HeaderRecord(name: "Accept", value: "application/json"), HeaderRecord(name: "Authorization", value: "••••••")],
                body: BodyRecord(text: #"{"name":"Rex","path":"/a/b"}"#, encoding: .utf8, size: 27, truncated: false))
            request.streamedBody = "<multipart form: 2 fields>"
            request.form = [
                FormFieldRecord(name: "note", value: "tab\there"), FormFieldRecord(name: "photo", fileName: "rex.png", contentType: "image/png"),
                FormFieldRecord(name: "bare"),
            ]
            return request
        }(),
        response: {
            var response = ResponseRecord(
                status: 404, statusText: "Not Found", httpVersion: "HTTP/1.1", headers: [HeaderRecord(name: "Content-Type", value: "text/plain")],
                body: BodyRecord(text: "AAEC/w==", encoding: .base64, size: 4, truncated: true), size: 4, timeMs: 12.345,
                source: "stub (notFound)", url: "https://example.com/items/7")
            response.declaredSize = 1_048_576
            response.file = "/tmp/out.bin"
            return response
        }(),
        error: ErrorRecord(kind: "notFound", message: "Not found: \"7\"", status: 404))

    /// Only what must be there: no example, values, response or error status.
    static let bare = HistoryEntry(
        id: "0D5E8F1A-6B7C-4E2D-8A9B-1C2D3E4F5A6B", date: date, service: "shop", endpoint: "list", environment: "staging", mode: .stub,
        example: nil, values: [:], request: RequestRecord(method: "GET", url: "http://127.0.0.1:8080/items", headers: [], body: nil),
        response: nil, error: ErrorRecord(kind: "notConnectedToInternet", message: "offline", status: nil))

    static func encoded(_ entry: HistoryEntry) throws -> String {
        String(decoding: try HistoryStore.encoder.encode(entry), as: UTF8.self)
    }

    @Test(arguments: [full, bare]) func theRecordIsWhatTheEncoderWrites(_ entry: HistoryEntry) throws {
        #expect(entry.json.compactText == (try Self.encoded(entry)))
    }

    @Test(arguments: [full, bare]) func printedJSONIsTheEncodersLaidOut(_ entry: HistoryEntry) throws {
        let encoded = try JSONValue.parse(try HistoryStore.encoder.encode(entry))
        #expect(entry.jsonText(pretty: true) == encoded.prettyText())
        #expect(entry.jsonText(pretty: false) == encoded.compactText)
        let both = try JSONValue.parse(try HistoryStore.encoder.encode([entry, Self.bare]))
        #expect(HistoryEntry.jsonText([entry, Self.bare], pretty: true) == both.prettyText())
    }

    @Test(arguments: [full, bare]) func theRecordReadsBackAsTheEntry(_ entry: HistoryEntry) throws {
        #expect(try HistoryEntry.decode(Data(entry.json.compactText.utf8)) == entry)
    }

    @Test(arguments: [0.0, 1.0, 12.5, 0.001, 1234.567, 86_400_000.0, 1e-7]) func timesAreWrittenAsTheEncoderWritesThem(_ milliseconds: Double) throws {
        var entry = Self.full
        entry.response?.timeMs = milliseconds
        #expect(entry.json.compactText == (try Self.encoded(entry)), "\(milliseconds)")
        #expect(try HistoryEntry.decode(Data(entry.json.compactText.utf8)).response?.timeMs == milliseconds)
    }
}
