import Foundation
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct ActionTests {
    let body = document(#"{"a": {"b": [1, {"c": "x y"}], "d": true}, "e": null}"#)
    // 0 {  1 "a": {  2 "b": [  3 1,  4 {  5 "c": "x y"  6 }  7 ],  8 "d": true  9 },  10 "e": null  11 }

    @Test func copiesTheValueAtALine() {
        #expect(body.valueText(atLine: 2, format: .compact) == #"[1,{"c":"x y"}]"#)
        #expect(body.valueText(atLine: 2, format: .compact, includingKey: true) == #""b":[1,{"c":"x y"}]"#)
        #expect(body.valueText(atLine: 2, format: .pretty) == "[\n  1,\n  {\n    \"c\": \"x y\"\n  }\n]")
        #expect(body.valueText(atLine: 2, format: .pretty, includingKey: true) == "\"b\": [\n  1,\n  {\n    \"c\": \"x y\"\n  }\n]")
        #expect(body.valueText(atLine: 7, format: .compact) == #"[1,{"c":"x y"}]"#)
        #expect(body.valueText(atLine: 5) == "\"x y\"")
        #expect(body.valueText(atLine: 8, includingKey: true) == "\"d\": true")
        #expect(body.valueText(atLine: 0, format: .compact) == #"{"a":{"b":[1,{"c":"x y"}],"d":true},"e":null}"#)
        #expect(body.valueText(atLine: 99) == nil)
        #expect(document("one\ntwo", contentType: "text/plain").valueText(atLine: 1) == "two")
    }

    @Test func savesWithoutEverOverwritingSilently() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bodyviewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("body.json")
        try body.save(to: target)
        #expect(try Data(contentsOf: target) == body.data)
        let other = document("[1]")
        #expect(throws: BodySaveError.fileExists(path: target.path)) { try other.save(to: target) }
        #expect(try Data(contentsOf: target) == body.data)
        try other.save(to: target, overwrite: true)
        #expect(try Data(contentsOf: target) == Data("[1]".utf8))
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["body.json"])
        let missing = directory.appendingPathComponent("no/such/dir/body.json")
        #expect(throws: BodySaveError.self) { try other.save(to: missing) }
        #expect(BodySaveError.fileExists(path: "/x/y").description == "/x/y already exists")
    }

    @Test func writesTemporaryFilesForAPagerOrEditor() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bodyviewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = try body.writeTemporaryFile(directory: directory)
        #expect(raw.lastPathComponent.hasPrefix("apiexplorer-body-") && raw.pathExtension == "json")
        #expect(try Data(contentsOf: raw) == body.data)
        let pretty = try body.writeTemporaryFile(directory: directory, pretty: true)
        #expect(try String(contentsOf: pretty, encoding: .utf8) == allLines(body) + "\n")
        #expect(raw != pretty)
    }
}

@Suite(.offPool, .enabled(if: BodyJQ.isInstalled, "jq is not on PATH"))
struct JQTests {
    let body = document(#"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#)

    @Test func pipesTheBodyThroughAFilter() async throws {
        let result = try await body.jq(".items | map(.id)")
        #expect(result.kind == .json)
        #expect(allLines(result) == "[\n  1,\n  2\n]")
        let stream = try await body.jq(".items[].name")
        #expect(stream.rootCount == 2)
        #expect(allLines(stream) == "\"a\"\n\"b\"")
        let negative = try await document("5").jq("-1")
        #expect(allLines(negative) == "-1")
    }

    @Test func reportsFilterErrors() async {
        do {
            _ = try await body.jq(".items | oops(")
            Issue.record("expected a failure")
        } catch let error as BodyJQError {
            guard case .failed(let status, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(status != 0)
            #expect(message.contains("syntax error") || message.contains("error"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cancellingTerminatesJQ() async {
        let task = Task { try await body.jq("last(range(1e15))") }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

@Suite(.offPool) struct JQAbsenceTests {
    @Test func saysClearlyWhenJQIsMissing() async {
        #expect(BodyJQ.locate(path: "/nonexistent-directory") == nil)
        await #expect(throws: BodyJQError.notInstalled) {
            try await BodyJQ.run(".", input: Data("{}".utf8), executable: nil, path: "/nonexistent-directory")
        }
        #expect(BodyJQError.notInstalled.description == "jq is not installed (no jq on PATH)")
    }
}
