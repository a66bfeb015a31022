import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestSupport
import TestTraits

/// The Body tab in the real runtime: a large body is formatted off the UI thread while frames keep coming.
@Suite(.offPool) struct BodyRuntimeTests {
    /// Answers every live request with the same body.
    struct FixedBodyTransport: Transport {
        let body: Data

        func send(_ request: Request) async throws(TransportError) -> Response {
            Response(status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server), body: body)
        }
    }

    /// About `megabytes` MB of JSON: an array of small objects.
    static func generatedJSON(megabytes: Int) -> Data {
        var data = Data()
        data.reserveCapacity(megabytes << 20 + 256)
        data.append(UInt8(ascii: "["))
        var index = 0
        while data.count < megabytes << 20 {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(contentsOf: #"{"id":\#(index),"name":"item \#(index)","tags":["a","b"],"price":12.5}"#.utf8)
            index += 1
        }
        data.append(UInt8(ascii: "]"))
        return data
    }

    /// Polls the terminal until `condition` holds for the last frame (or fails after `timeout`).
    static func waitForFrame(_ terminal: HeadlessTerminal, timeout: Duration = .seconds(120),
        _ condition: (String) -> Bool) async throws -> String
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let text = terminal.lastFrame?.buffer.plainText(), condition(text) { return text }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("no frame matched in time; last:\n\(terminal.lastFrame?.buffer.plainText() ?? "none")")
        throw CancellationError()
    }

    @Test func aTwentyMegabyteBodyAppearsAndScrollsWhileFramesKeepComing() async throws {
        let body = Self.generatedJSON(megabytes: 20)
        // Every frame is kept (80×24 cells are small), to read the progress frames back afterwards.
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24), frameHistoryLimit: 400)
        let runtime = ExplorerRuntime(
            catalog: TestCatalog.load(), secrets: SecretStore(), transport: FixedBodyTransport(body: body), device: terminal)
        // The run loop on threads of its own: the process's busy tests must not hold back its frames.
        let running = Task(executorPreference: DedicatedExecutor.work) { await runtime.run() }
        try terminal.send(keys: "s Enter Tab")

        let shown = try await Self.waitForFrame(terminal) { $0.contains("JSON · ") }
        #expect(shown.contains(#""id": 0,"#))
        await runtime.waitUntilIdle()

        // While it was formatted, frames kept coming: the progress moved on screen.
        let progress = try #require(try? Regex(#"Formatting \d+%"#))
        let percentages = Set(terminal.frames.compactMap { frame -> String? in
            let text = frame.buffer.plainText()
            return text.firstMatch(of: progress).map { String(text[$0.range]) }
        })
        #expect(percentages.count >= 2, "progress frames while formatting: \(percentages.sorted()) of \(terminal.frames.count) frames")

        let lines = try #require(runtime.currentState.selectedBodyPane?.main?.document.lineCount)
        #expect(lines > 1_000_000)

        // Jump to the end and back: each is one frame.
        let framesBefore = runtime.frameCount
        try terminal.send(keys: "G")
        let end = try await Self.waitForFrame(terminal) { $0.contains("\(lines) ]") }
        #expect(end.contains("\(lines) ]"))
        try terminal.send(keys: "g")
        _ = try await Self.waitForFrame(terminal) { $0.contains("      1 [") }
        #expect(runtime.frameCount > framesBefore)

        runtime.post(.terminalClosed)
        await running.value
    }
}

extension BodyRuntimeTests {
    /// Polls until `condition` holds (or fails after a generous timeout).
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Keys that type `text` into an input line.
    static func typing(_ text: String) -> String { text.map { $0 == " " ? "Space" : String($0) }.joined(separator: " ") }

    @Test func copySaveAndPagerGoThroughTheRunner() async throws {
        let body = Data(#"{"a":[1,2],"b":"x"}"#.utf8)
        let terminal = HeadlessTerminal(size: Size(width: 100, height: 30))
        let runtime = ExplorerRuntime(
            catalog: TestCatalog.load(), secrets: SecretStore(), transport: FixedBodyTransport(body: body), device: terminal,
            environment: ["PAGER": "true", "EDITOR": "true"])
        let running = Task { await runtime.run() }
        try terminal.send(keys: "s Enter Tab")
        try await Self.waitUntil("the body") { terminal.lastFrame?.buffer.plainText().contains("JSON · 7 lines") == true }

        // y: the value at the cursor, over OSC 52.
        try terminal.send(keys: "j y")
        try await Self.waitUntil("the copy") { !terminal.controlSequences.isEmpty }
        let sequence = try #require(terminal.controlSequences.first)
        let encoded = sequence.dropFirst("\u{1B}]52;c;".count).dropLast()
        let copied = try #require(Data(base64Encoded: String(encoded)))
        #expect(String(decoding: copied, as: UTF8.self) == "[\n  1,\n  2\n]")

        // o and O: the terminal is left to the program and taken back.
        try terminal.send(keys: "o")
        try await Self.waitUntil("the pager") { terminal.suspensionCount == 1 }
        try terminal.send(keys: "O")
        try await Self.waitUntil("the editor") { terminal.suspensionCount == 2 }

        // | and :, when jq is installed: the result replaces the body until Esc.
        if BodyJQ.isInstalled {
            try terminal.send(keys: "| . b Enter")
            try await Self.waitUntil("the jq result") { terminal.lastFrame?.buffer.plainText().contains("jq .b · Esc shows the whole body") == true }
            #expect(terminal.lastFrame?.buffer.plainText().contains(#"1 "x""#) == true)
            try terminal.send(keys: "| ( Enter")
            try await Self.waitUntil("the jq error") { runtime.currentState.notice?.hasPrefix("jq failed: jq: error") == true }
            try terminal.send(keys: "Esc")
        }
        try terminal.send(keys: ": $ . a [ 1 ] Enter")
        try await Self.waitUntil("the query result") { terminal.lastFrame?.buffer.plainText().contains("query $.a[1] · 1 value") == true }
        try terminal.send(keys: "Esc")
        try await Self.waitUntil("the whole body") { terminal.lastFrame?.buffer.plainText().contains("JSON · 7 lines") == true }

        // S: an existing file is never replaced without a yes.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bodyui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.json")
        try Data("old".utf8).write(to: file)
        try terminal.send(keys: "S C-u " + Self.typing(file.path) + " Enter")
        try await Self.waitUntil("the question") { terminal.lastFrame?.buffer.plainText().contains("exists. Overwrite it? (y/n)") == true }
        try terminal.send(keys: "n")
        try await Self.waitUntil("the refusal") { terminal.lastFrame?.buffer.plainText().contains("Not saved") == true }
        #expect(try Data(contentsOf: file) == Data("old".utf8))
        try terminal.send(keys: "S C-u " + Self.typing(file.path) + " Enter")
        try await Self.waitUntil("the question") { terminal.lastFrame?.buffer.plainText().contains("exists. Overwrite it? (y/n)") == true }
        try terminal.send(keys: "y")
        try await Self.waitUntil("the save") { (try? Data(contentsOf: file)) == body }

        runtime.post(.terminalClosed)
        await running.value
    }
}
