import Catalog
import DispatcherCore
import Foundation
import Sessions
import StateStore
import Testing
import TestTraits

/// `call --json` streams the response body into the JSON: the same text as the entry encoded whole.
@Suite(.offPool) struct StreamedJSONTests {
    static func outcome(body: Data, contentType: String = "text/plain") throws -> CallOutcome {
        let url = try #require(URL(string: "http://127.0.0.1:9/x"))
        let request = Request(identifier: "s/e", method: .get, url: url, settings: TransportSettings(environment: Environment(name: "local", baseURL: url)))
        let response = Response(status: 200, headers: Headers([("Content-Type", contentType)], origin: .server), body: body, source: .network)
        let exchange = Exchange(
            request: request, result: .success(response), trace: [], environmentName: "local", environmentType: .development,
            stubBehavior: .never, attempts: 1, notes: [])
        let call = EndpointCall(endpoint: EndpointKey(service: "s", endpoint: "e"), catalog: .inMemory("s"), environment: "local", mode: .live)
        return CallOutcome(call: call, exchange: exchange, redactor: .standard)
    }

    static func streamed(_ outcome: CallOutcome, date: Date) -> String {
        var output = Data()
        HistoryEntry.writeJSON(outcome, date: date, pretty: true) { output.append($0) }
        return String(decoding: output, as: UTF8.self)
    }

    @Test(arguments: [
        Data("plain \"quoted\" \\ back\nslash\t\u{1}\u{1F} é ☃ 🎉".utf8),
        Data([0xFF, 0x00, 0x80, 0x41]),
        Data(),
        // Over a chunk, with a 3-byte character across the first chunk boundary.
        Data((String(repeating: "a", count: (1 << 20) - 1) + "☃" + String(repeating: "b\"", count: 1000)).utf8),
        Data((0..<((1 << 20) + 7)).map { UInt8(truncatingIfNeeded: $0 * 7) }),
    ])
    func theStreamedEntryIsTheWholeEntry(body: Data) throws {
        let outcome = try Self.outcome(body: body)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let entry = HistoryEntry(outcome, forHistory: false, date: date)
        let streamed = Self.streamed(outcome, date: date)
        // Each entry has its own id; compare with it set alike.
        let id = try #require(streamed.split(separator: "\n").first { $0.contains("\"id\"") })
        let whole = entry.jsonText(pretty: true)
        let wholeLines = whole.split(separator: "\n", omittingEmptySubsequences: false).map { $0.contains("\"id\"") ? id : $0 }
        #expect(streamed == wholeLines.joined(separator: "\n") + "\n")
    }
}
