import DispatcherCore
import Foundation
import Testing
import TestTraits

/// An environment, a request, its settings and a response keep their fields in one shared box
/// until a copy changes (`CopyOnWrite`): each must still behave as a plain value.
@Suite(.offPool) struct ValueSemanticsTests {
    let environment = Environment(
        name: "local", baseURL: URL(string: "http://127.0.0.1:4010")!, headers: ["Accept": "application/json"],
        variables: ["id": "7"], retry: RetryPolicy(limit: 2))

    @Test func aChangedResponseLeavesItsCopiesAlone() {
        let original = Response(status: 200, headers: ["ETag": "v1"], body: Data("{}".utf8), httpVersion: "HTTP/1.1")
        var changed = original
        changed.headers.set("ETag", "v2", origin: .server)
        changed.body.append(contentsOf: [0x20])
        changed.isTruncated = true
        changed.downloadedFile = DownloadedFile(path: "/tmp/body", byteCount: 3)
        #expect(original.headers["ETag"] == "v1")
        #expect(original.body == Data("{}".utf8))
        #expect(!original.isTruncated)
        #expect(original.downloadedFile == nil)
        #expect(changed.headers["ETag"] == "v2")
        #expect(changed.body.count == 3)
        #expect(changed != original)
    }

    @Test func equalResponsesAreEqualWhetherOrNotTheyShareStorage() {
        let first = Response(status: 404, headers: ["A": "1"], body: Data("x".utf8))
        let second = Response(status: 404, headers: ["A": "1"], body: Data("x".utf8))
        let copy = first
        #expect(first == second)
        #expect(first == copy)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second, copy]).count == 1)
        var other = second
        other.status = 500
        #expect(Set([first, other]).count == 2)
    }

    @Test func aChangedEnvironmentLeavesItsCopiesAlone() {
        var changed = environment
        changed.variables["id"] = "8"
        changed.headers.set("Accept", "text/plain", origin: .environment("local"))
        changed.retry?.limit = 5
        changed.tracksInflights = true
        #expect(environment.variables["id"] == "7")
        #expect(environment.headers["Accept"] == "application/json")
        #expect(environment.retry?.limit == 2)
        #expect(!environment.tracksInflights)
        #expect(changed.variables["id"] == "8")
        #expect(changed.retry?.limit == 5)
        #expect(changed != environment)
        #expect(environment == Environment(
            name: "local", baseURL: URL(string: "http://127.0.0.1:4010")!, headers: ["Accept": "application/json"],
            variables: ["id": "7"], retry: RetryPolicy(limit: 2)))
    }

    @Test func aChangedRequestAndItsSettingsLeaveTheirCopiesAlone() {
        let original = Request(
            identifier: "shop/list", method: .get, url: URL(string: "http://127.0.0.1:4010/items")!, headers: ["Accept": "application/json"],
            settings: TransportSettings(environment: environment))
        var changed = original
        changed.attempt = 2
        changed.headers.set("Authorization", "Bearer t", origin: .plugin("auth"))
        changed.settings.timeouts.total = nil
        changed.settings.maximumBodySize = 10
        #expect(original.attempt == 1)
        #expect(original.headers["Authorization"] == nil)
        #expect(original.settings.timeouts == environment.timeouts)
        #expect(original.settings.maximumBodySize == environment.maximumBodySize)
        #expect(changed.settings.timeouts.total == nil)
        #expect(changed.settings != original.settings)
        #expect(original.settings == TransportSettings(environment: environment))
    }
}
