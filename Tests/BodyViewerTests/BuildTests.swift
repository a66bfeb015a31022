import Foundation
import Synchronization
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct BuildTests {
    /// A JSON array of `count` small objects.
    static func array(_ count: Int) -> Data {
        var text = "["
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"id":\#(index),"name":"item \#(index)","tags":["a","b"]}"#
        }
        return Data((text + "]").utf8)
    }

    @Test func reportsProgressAndPublishesAPreviewForLargeJSON() async throws {
        let data = Self.array(5_000)
        let reports = Mutex<[BodyBuildProgress]>([])
        let options = BodyBuildOptions(chunkSize: 4096, previewAfterBytes: 8192)
        let body = try await BodyDocument.build(data: data, contentType: "application/json", options: options) { progress in
            reports.withLock { $0.append(progress) }
        }
        let seen = reports.withLock { $0 }
        #expect(seen.count > 10)
        #expect(seen.map(\.bytesProcessed) == seen.map(\.bytesProcessed).sorted())
        #expect(seen.last?.fraction == 1)
        let previews = seen.compactMap(\.preview)
        #expect(previews.count == 1)
        let preview = try #require(previews.first)
        #expect(!preview.isComplete && body.isComplete)
        #expect(preview.lineCount > 100 && preview.lineCount < body.lineCount)
        // The preview's lines are the final document's lines.
        let state = wideState(height: 50)
        #expect(preview.renderVisible(state) == body.renderVisible(state))
        // Its last line cannot fold (its container is still open) and end goes to the last indexed line.
        var previewState = wideState(height: 5)
        previewState.moveToEnd(in: preview)
        #expect(previewState.cursorLine == preview.lineCount - 1)
        previewState.moveToTop(in: preview)
        previewState.foldAtCursor(in: preview)
        #expect(previewState.folds.isEmpty)
    }

    @Test func cancellationStopsABuild() async {
        let data = Self.array(20_000)
        // Cancelled before it starts.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await BodyDocument.build(data: data, contentType: "application/json")
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        // Cancelled after the first chunk.
        let chunks = Mutex(0)
        let midway = Task {
            try await BodyDocument.build(data: data, contentType: "application/json",
                options: BodyBuildOptions(chunkSize: 4096)) { _ in
                chunks.withLock { $0 += 1 }
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        await #expect(throws: CancellationError.self) { try await midway.value }
        #expect(chunks.withLock { $0 } == 1)
        // Text bodies too.
        let text = Task {
            try await BodyDocument.build(data: Data(String(repeating: "line\n", count: 10_000).utf8), contentType: "text/plain",
                options: BodyBuildOptions(chunkSize: 4096)) { _ in withUnsafeCurrentTask { $0?.cancel() } }
        }
        await #expect(throws: CancellationError.self) { try await text.value }
    }

    @Test func theEventStreamEndsWithTheDocument() async throws {
        var sawProgress = false
        var finished: BodyDocument?
        for try await event in BodyDocument.builds(data: Self.array(100), contentType: nil) {
            switch event {
            case .progress: sawProgress = true
            case .finished(let document): finished = document
            }
        }
        #expect(sawProgress)
        #expect(finished?.kind == .json)
    }

    @Test func invalidJSONFoundLateStillFallsBackToText() async throws {
        var data = Self.array(2_000)
        data.removeLast()
        let body = try await BodyDocument.build(data: data, contentType: "application/json",
            options: BodyBuildOptions(chunkSize: 4096, previewAfterBytes: 4096))
        #expect(body.kind == .text(.plain))
        #expect(body.notices.first?.kind == .invalidJSON)
    }
}

@Suite(.offPool) struct NavigationTests {
    let body = BodyDocument(data: BuildTests.array(100), contentType: "application/json")

    @Test func pagesAndJumps() {
        var state = BodyViewState(viewportHeight: 10, viewportWidth: 60)
        state.pageDown(in: body)
        #expect(state.cursorLine == 10 && state.topLine == 10)
        state.moveDown(3, in: body)
        #expect(state.cursorLine == 13 && state.topLine == 10)
        state.pageUp(in: body)
        #expect(state.cursorLine == 3 && state.topLine == 0)
        state.moveToEnd(in: body)
        #expect(state.cursorLine == body.lineCount - 1)
        #expect(state.topLine == body.lineCount - 10)
        #expect(body.renderVisible(state).count == 10)
        state.pageDown(in: body)
        #expect(state.topLine == body.lineCount - 10)
        state.moveToTop(in: body)
        #expect(state.cursorLine == 0 && state.topLine == 0)
        state.moveUp(in: body)
        #expect(state.cursorLine == 0)
    }

    @Test func scrollingKeepsTheCursorInView() {
        var state = BodyViewState(viewportHeight: 10, viewportWidth: 60)
        state.scroll(by: 25, in: body)
        #expect(state.topLine == 25 && state.cursorLine == 25)
        state.moveDown(5, in: body)
        state.scroll(by: -20, in: body)
        #expect(state.topLine == 5 && state.cursorLine == 14)
        state.scroll(by: 100_000, in: body)
        #expect(state.topLine == body.lineCount - 10)
    }

    @Test func resizingAndTheGutter() {
        var state = BodyViewState(viewportHeight: 10, viewportWidth: 60)
        #expect(state.gutterWidth(for: body) == String(body.lineCount).count + 1)
        state.moveDown(30, in: body)
        state.resize(height: 5, width: 20, in: body)
        #expect(state.cursorLine == 30)
        #expect(state.topLine == 26)
        #expect(body.renderVisible(state).allSatisfy { $0.text.count <= 20 })
        state.toggleLineNumbers(in: body)
        #expect(state.gutterWidth(for: body) == 0)
        #expect(body.renderVisible(state)[0].runs.first?.role != .lineNumber)
    }
}
