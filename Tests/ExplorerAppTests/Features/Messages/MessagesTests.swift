import Catalog
@testable import ExplorerApp
import ExplorerTestSupport
import TerminalKit
import Testing
import TestTraits

/// Messages that stay (Features/Messages): every notice and error kept in full, `M` lists them,
/// the status bar cuts the latest with an ellipsis and says where the rest is.
@Suite(.offPool) struct MessagesTests {
    static let long = "Not sent: the JSON body does not parse: line 3, column 17: expected ',' or '}' after an object's value, found '\"' (Edit tab)."

    @Test func everyNoticeIsKeptInFullNewestFirst() {
        var state = TestCatalog.state()
        _ = state.press("s")
        _ = AppReducer.reduce(&state, .body(.message(Self.long)))
        #expect(state.messages.entries.count == 2 && state.messages.entries.first?.text.hasPrefix("LIVE") == true)
        #expect(state.messages.entries.last?.text == Self.long)
        #expect(state.messages.entries.last?.isError == true)
        _ = state.press("M")
        guard case .messages? = state.overlay else {
            Issue.record("M opens no log")
            return
        }
        let screen = state.screen
        #expect(screen.contains("Messages · 2"))
        // The newest first, wrapped rather than cut.
        let newest = screen.firstRange(of: "Not sent: the JSON body")?.lowerBound
        let older = screen.firstRange(of: "LIVE: requests go to")?.lowerBound
        #expect(newest != nil && older != nil && newest! < older!)
        #expect(screen.contains("after an object's"))
        _ = state.press("M")
        #expect(state.overlay == nil)
    }

    @Test func aNoticeShownAgainIsKeptAgainButNotWhileItStays() {
        var state = TestCatalog.state()
        _ = state.press("r")
        _ = AppReducer.reduce(&state, .exchanges(.activityChanged(0)))  // the notice stays: not kept again
        _ = state.press("r")
        #expect(state.messages.entries.map(\.text) == ["Nothing to resend yet: press Enter to send.", "Nothing to resend yet: press Enter to send."])
        #expect(state.messages.entries.map(\.number) == [1, 2])
    }

    @Test func theLogIsBounded() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .messages(.recorded((0..<(MessagesState.limit + 5)).map { "line \($0)" }, isError: false)))
        #expect(state.messages.entries.count == MessagesState.limit)
        #expect(state.messages.entries.last?.text == "line \(MessagesState.limit + 4)")
        #expect(state.messages.entries.last?.number == MessagesState.limit + 5)
    }

    @Test func anEmptyLogSaysSo() {
        var state = TestCatalog.state()
        _ = state.press("M")
        #expect(state.overlay == nil && state.notice == "No messages yet.")
    }

    @Test(arguments: ScreenSnapshotTests.sizes)
    func aLongNoticeIsCutWithAHint(size: Size) {
        var state = TestCatalog.state(size: size)
        _ = AppReducer.reduce(&state, .body(.message(Self.long)))
        let bar = state.screen.split(separator: "\n", omittingEmptySubsequences: false)[size.height - 1]
        // Cut with an ellipsis and the hint, or whole without it; whole at 200 columns.
        #expect(bar.contains(Self.long) != (bar.contains("…") && bar.contains("M full message")))
        #expect(bar.contains(Self.long) == (size.width >= 200))
        #expect(bar.contains("shop · local"))
        assertSnapshot(state.screen, named: "message-cut-\(size)")
        _ = state.press("M")
        assertSnapshot(state.screen, named: "messages-\(size)")
    }

    /// A reload that breaks a file: the bar names the first error as the launch does
    /// (file:line:column), and a cut keeps that location readable, the folders giving way.
    @Test(arguments: ScreenSnapshotTests.sizes)
    func aReloadThatBreaksAFileSaysWhereAsAtLaunch(size: Size) {
        var state = TestCatalog.state(size: size)
        let error = Diagnostic(file: "environments/teams/payments/hb.yaml", line: 98, column: 5, severity: .error, message: "unknown key 'heders'")
        let broken = CatalogSet(services: state.catalog.services, diagnostics: [error], source: state.catalog.source)
        _ = AppReducer.reduce(&state, .catalogReloaded(broken, SecretStore(), changed: ["hb.yaml"]))
        #expect(state.notice?.hasPrefix(error.description + " — hb.yaml has errors") == true, "\(state.notice ?? "")")
        #expect(state.messages.entries.contains { $0.text == error.description && $0.isError })
        let bar = state.screen.split(separator: "\n", omittingEmptySubsequences: false)[size.height - 1]
        #expect(bar.contains("hb.yaml:98:5: error: unkn"), "\(bar)")
        // Cut: the ellipsis and where the full text is.
        #expect(bar.contains("(D shows them).") || (bar.contains("…") && bar.contains("M full message")), "\(bar)")
        #expect(bar.contains("environments/teams/payments/hb.yaml:98:5") || bar.contains("…/hb.yaml:98:5"))
        assertSnapshot(state.screen, named: "message-reload-error-\(size)")
    }

    @Test func onlyALeadingLocationIsShortened() {
        let notice = "environments/teams/payments/hb.yaml:98:5: error: unknown key 'heders'"
        #expect(MessagesFeature.keepingLocation(notice, width: 40) == "…/hb.yaml:98:5: error: unknown key 'heders'")
        #expect(MessagesFeature.keepingLocation(notice, width: 200) == notice, "it fits: nothing changes")
        for other in [Self.long, "hb.yaml:98:5: no folders to drop, and more text than fits", "a/b: c:d: e", "a/b:x:5: text that is long"] {
            #expect(MessagesFeature.keepingLocation(other, width: 10) == other)
        }
    }
}
