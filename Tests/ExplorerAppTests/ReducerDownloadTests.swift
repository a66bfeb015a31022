import DispatcherCore
import ExplorerApp
import Testing

/// `d`: where the body goes is asked, with a name from the endpoint; the call carries the path;
/// a downloaded answer is formatted from its file.
@Suite struct ReducerDownloadTests {
    @Test func dAsksForAFileThenSendsADownloadAndFormatsTheFile() {
        var state = TestCatalog.state()
        _ = state.press("d")
        guard case .download(let dialog)? = state.overlay else {
            Issue.record("no question")
            return
        }
        #expect(dialog.input.text == "listItems.download")
        #expect(state.screen.contains("Download shop/listItems"))
        let sent = state.press("C-u o u t . j s o n Enter").sent
        #expect(sent.first?.call.downloadPath == "out.json")
        #expect(state.overlay == nil)
        var exchange = ReducerRequestTests.exchange(status: 200, body: "")
        if case .success(var response) = exchange.result {
            response.downloadedFile = DownloadedFile(path: "/tmp/out.json", byteCount: 1_234_567)
            exchange.result = .success(response)
        }
        let effects = AppReducer.reduce(&state, .exchangeFinished(ticket: 1, exchange: exchange, redactor: .standard, finishedAt: TestCatalog.now))
        #expect(effects.contains { if case .buildBodyFromFile(_, _, "/tmp/out.json", _, _) = $0 { true } else { false } })
        #expect(state.screen.contains("1.2 MB"))
    }

    @Test func escDropsTheDownloadAndATooLargeBodySuggestsOne() {
        var state = TestCatalog.state()
        _ = state.press("d Esc")
        #expect(state.overlay == nil)
        #expect(state.notice == "Not downloaded.")
        _ = state.press("Enter")
        state.finish(ticket: 1, ReducerRequestTests.exchange(status: 0, error: DispatchError(kind: .bodyTooLarge, message: "too large", source: "transport")))
        #expect(state.screen.contains("d downloads it to a file"))
    }
}
