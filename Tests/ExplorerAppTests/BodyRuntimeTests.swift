import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import TerminalKit
import Testing

/// The Body tab in the real runtime: a large body is formatted off the UI thread while frames keep coming.
@Suite struct BodyRuntimeTests {
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
        let running = Task { await runtime.run() }
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
