import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Testing
import TestTraits

/// `d`: where the body goes is asked, with a name from the endpoint; the call carries the path;
/// a downloaded answer is formatted from its file.
@Suite(.offPool) struct ReducerDownloadTests {
    @Test func dAsksForAFileThenSendsADownloadAndFormatsTheFile() {
        var state = TestCatalog.state()
        _ = state.press("d")
        guard case .exchanges(.download(let dialog))? = state.overlay else {
            Issue.record("no question")
            return
        }
        #expect(dialog.input.text == "listItems.download")
        #expect(state.screen.contains("Download shop/listItems"))
        // Where the file is (and whether one is there) is found first, off the UI thread.
        let asked = state.press("C-u o u t . j s o n Enter")
        guard case .exchanges(.checkDownload(let call))? = asked.first(where: { if case .exchanges(.checkDownload) = $0 { true } else { false } }) else {
            Issue.record("no check of the download's file: \(asked)")
            return
        }
        #expect(call.downloadPath == "out.json")
        #expect(call.downloadPlace == .workingDirectory)
        let sent = AppReducer.reduce(&state, .exchanges(.downloadChecked(call, path: "/tmp/out.json", exists: false, problem: nil))).sent
        #expect(sent.first?.call.downloadPath == "/tmp/out.json")
        #expect(sent.first?.call.downloadPlace == .checked(replaces: false))
        #expect(state.overlay == nil)
        var exchange = TestCatalog.exchange(status: 200, body: "")
        if case .success(var response) = exchange.result {
            response.downloadedFile = DownloadedFile(path: "/tmp/out.json", byteCount: 1_234_567)
            exchange.result = .success(response)
        }
        let effects = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: exchange, redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(effects.contains { if case .body(.buildFromFile(_, _, "/tmp/out.json", _, _)) = $0 { true } else { false } })
        #expect(state.screen.contains("1.2 MB"))
        // "Downloading … to …" gives way to where the body went.
        #expect(state.notice == "Saved 1.2 MB to /tmp/out.json.")
    }

    @Test func aFileThatExistsIsReplacedOnlyWhenThePersonSaysSo() {
        var state = TestCatalog.state()
        let asked = state.press("d C-u o u t . j s o n Enter")
        guard case .exchanges(.checkDownload(let call))? = asked.first(where: { if case .exchanges(.checkDownload) = $0 { true } else { false } }) else {
            Issue.record("no check of the download's file")
            return
        }
        #expect(AppReducer.reduce(&state, .exchanges(.downloadChecked(call, path: "/tmp/out.json", exists: true, problem: nil))).sent.isEmpty)
        #expect(state.screen.contains("/tmp/out.json exists."))
        #expect(state.press("n").sent.isEmpty)
        #expect(state.notice == "Not downloaded: /tmp/out.json is kept.")
        _ = AppReducer.reduce(&state, .exchanges(.downloadChecked(call, path: "/tmp/out.json", exists: true, problem: nil)))
        let sent = state.press("y").sent
        #expect(sent.first?.call.downloadPlace == .checked(replaces: true))
        // A catalog's download: that leads out of the downloads folder is not sent at all.
        #expect(AppReducer.reduce(&state, .exchanges(.downloadChecked(call, path: "", exists: false, problem: "the download '../x' names a file outside the downloads folder /d"))).sent.isEmpty)
        #expect(state.notice == "Not downloaded: the download '../x' names a file outside the downloads folder /d.")
    }

    @Test func escDropsTheDownloadAndATooLargeBodySuggestsOne() {
        var state = TestCatalog.state()
        _ = state.press("d Esc")
        #expect(state.overlay == nil)
        #expect(state.notice == "Not downloaded.")
        _ = state.press("Enter")
        state.finish(ticket: 1, TestCatalog.exchange(status: 0, error: DispatchError(kind: .bodyTooLarge, message: "too large", source: "transport")))
        #expect(state.screen.contains("d downloads it to a file"))
    }
}
