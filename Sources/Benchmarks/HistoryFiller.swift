import Catalog
import DispatcherCore
import Foundation
import StateStore

/// Fills a history with requests like people send: JSON responses of a few kilobytes, some
/// larger, some binary, some failed, so launch figures are taken against a realistic full history.
enum HistoryFiller {
    static func fill(_ store: HistoryStore, entries: Int) throws {
        let item = Data(#"{"id": 7, "name": "Rex", "status": "available", "tags": ["dog", "good"], "owner": {"id": 3, "name": "Ann"}}"#.utf8)
        for index in 0..<entries {
            let body: Data
            switch index % 10 {
            case 0: body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })  // binary, past the kept limit
            case 1, 2: body = Data("[".utf8) + Data(Array(repeating: item, count: 400).joined(separator: Data(",".utf8))) + Data("]".utf8)  // 40 kB
            default: body = item
            }
            let failed = index % 7 == 0
            let response = ResponseRecord(
                status: failed ? 404 : 200, statusText: failed ? "Not Found" : "OK", httpVersion: "HTTP/1.1",
                headers: [HeaderRecord(name: "Content-Type", value: "application/json"), HeaderRecord(name: "Content-Length", value: "\(body.count)")],
                body: BodyRecord(body, contentType: "application/json", redactor: .standard, limit: HistoryEntry.defaultBodyLimit), size: body.count,
                timeMs: 12.5, source: "network", url: "http://127.0.0.1:4010/petstore/pet/\(index)")
            let entry = HistoryEntry(
                date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), service: "petstore", endpoint: "getPetById",
                environment: "local", mode: index.isMultiple(of: 2) ? .live : .stub, example: nil, values: ["petId": "\(index)"],
                request: RequestRecord(
                    method: "GET", url: "http://127.0.0.1:4010/petstore/pet/\(index)",
                    headers: [HeaderRecord(name: "Accept", value: "application/json"), HeaderRecord(name: "api_key", value: Redactor.mask)],
                    body: nil),
                response: response, error: failed ? ErrorRecord(kind: "notFound", message: "Pet not found", status: 404) : nil)
            try store.append(entry)
        }
    }
}
