import TerminalKit

/// The response pane: the tab shown and how far each text tab is scrolled.
package struct ResponseState: Sendable {
    /// The tab shown.
    package fileprivate(set) var tab: ResponseTab = .body
    /// Scroll offsets of the text tabs, by tab (absent: the top; the Log tab: its end).
    package fileprivate(set) var scroll: [ResponseTab: Int] = [:]
}

/// The tabs of the response pane, numbered from 1. A tab is a case here, its title, and a line
/// in `ResponsePaneView`'s switch; its keys, if any, are its feature's.
package enum ResponseTab: Int, Sendable, Hashable, CaseIterable {
    case body = 1, headers, errors, request, log, edit, variables, tests

    /// The tab's title.
    package var title: String {
        switch self {
        case .body: "Body"
        case .headers: "Headers"
        case .errors: "Errors"
        case .request: "Request"
        case .log: "Log"
        case .edit: "Edit"
        case .variables: "Vars"
        case .tests: "Tests"
        }
    }

    /// The title when the pane is narrow.
    package var shortTitle: String {
        switch self {
        case .headers: "Hdrs"
        case .errors: "Errs"
        case .request: "Req"
        case .tests: "✓"
        default: title
        }
    }
}

/// What a key does to the response pane's tabs.
package enum ResponseCommand: Sendable, Hashable {
    /// Show a tab.
    case showTab(ResponseTab)
    /// The next tab (after the last: the first).
    case nextTab
    /// The previous tab.
    case previousTab
}

/// What happens to the response pane.
package enum ResponseAction: Sendable {
    /// A key of the tabs.
    case command(ResponseCommand)
    /// Scroll the text tab shown, at most to `limit`.
    case scroll(AppReducer.Movement, limit: Int)
    /// Every text tab back to its start (another endpoint's answer is shown).
    case resetScroll
}

enum ResponseFeature: AppFeature {
    static func reduce(_ state: inout ResponseState, _ action: ResponseAction, _ shell: inout AppShell, _ context: Void) -> [AppEffect] {
        switch action {
        case .command(.showTab(let tab)):
            state.tab = tab
        case .command(.nextTab):
            state.tab = ResponseTab(rawValue: state.tab.rawValue % ResponseTab.allCases.count + 1) ?? .body
        case .command(.previousTab):
            state.tab = ResponseTab(rawValue: (state.tab.rawValue + ResponseTab.allCases.count - 2) % ResponseTab.allCases.count + 1) ?? .body
        case .scroll(let movement, let limit):
            let current = state.scroll[state.tab] ?? 0
            switch movement {
            case .up(let count): state.scroll[state.tab] = max(0, current - count)
            case .down(let count): state.scroll[state.tab] = min(limit, current + count)
            case .top: state.scroll[state.tab] = 0
            case .bottom: state.scroll[state.tab] = limit
            }
        case .resetScroll:
            state.scroll = [:]
        }
        return []
    }

    /// The tabs' keys: a digit each (`1–8`, from `ResponseTab`), then the next and previous tab.
    static let keys: [KeyBinding] =
        ResponseTab.allCases.map { tab in
            tab == .body
                ? KeyBinding(
                    "\(tab.rawValue)", .response(.showTab(tab)), .response, label: "1–\(ResponseTab.allCases.count)",
                    help: ResponseTab.allCases.map(\.title).joined(separator: ", ") + " tab")
                : KeyBinding("\(tab.rawValue)", .response(.showTab(tab)), .response, help: nil)
        } + [
            KeyBinding("]", .response(.nextTab), .response, help: "next tab"),
            KeyBinding("[", .response(.previousTab), .response, help: "previous tab"),
        ]
}

extension AppState {
    /// The tab shown in the response pane.
    package var tab: ResponseTab { response.tab }

    /// Scroll offsets of the text tabs, by tab.
    package var tabScroll: [ResponseTab: Int] { response.scroll }
}
