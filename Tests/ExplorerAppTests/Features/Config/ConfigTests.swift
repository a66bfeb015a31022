import Catalog
import ExplorerApp
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestSupport
import TestTraits

/// The config file (Features/Config): keys rebound with conflicts diagnosed, themes picked or
/// defined, and anything wrong reported with file:line:column while the defaults apply.
@Suite(.offPool) struct ConfigTests {
    static let file = "/home/ann/.config/apiexplorer/config.yaml"

    static func parse(_ text: String) -> ExplorerConfig { ExplorerConfig.parse(text, file: file) }

    static func state(_ config: ExplorerConfig, size: Size = Size(width: 120, height: 40)) -> AppState {
        var state = AppState(launching: LaunchOptions(config: config), size: size, timeZone: .utc)
        _ = AppReducer.reduce(&state, .launched)
        _ = AppReducer.reduce(&state, .catalogLoaded(TestCatalog.load(), SecretStore(processEnvironment: [:])))
        return state
    }

    static func keys(_ config: ExplorerConfig, _ command: Command) -> [String] {
        config.bindings.first { $0.command == command }?.triggers.compactMap { if case .key(let key) = $0 { key.description } else { nil } } ?? []
    }

    @Test func keysAreReboundAndTheRestStays() {
        let config = Self.parse("""
            keys:
              showMessages: L
              send: [C-s, Enter]
              pickExample: X
            theme: light
            """)
        #expect(config.diagnostics.isEmpty)
        #expect(Self.keys(config, .messages(.showMessages)) == ["L"])
        #expect(Self.keys(config, .exchanges(.send)) == ["C-s", "Enter"])
        #expect(Self.keys(config, .exchanges(.resend)) == ["r"])
        #expect(config.theme == .light)
        var state = Self.state(config)
        _ = state.press("M")
        #expect(state.notice == nil && state.overlay == nil)
        _ = state.press("r L")
        if case .messages? = state.overlay {} else { Issue.record("L opens no message log") }
        // Help and the status bar say the keys in effect.
        _ = state.press("Esc X")
        if case .exchanges(.examplePicker)? = state.overlay {} else { Issue.record("X picks no example") }
        // The help window is made from the effective keymap (its rows are checked below; the key
        // is below the window's first page now that the keymap is longer).
        _ = state.press("Esc ?")
        if case .help? = state.overlay {} else { Issue.record("? opens no help") }
        #expect(Keymap.plainText(of: config.bindings).contains("L messages: every notice"))
        #expect(!Keymap.plainText(of: config.bindings).contains("M messages"))
    }

    @Test func twoCommandsMaySwapKeys() {
        let config = Self.parse("keys: { toggleMode: x, pickExample: s }")
        #expect(config.diagnostics.isEmpty)
        #expect(Self.keys(config, .exchanges(.toggleMode)) == ["x"] && Self.keys(config, .exchanges(.pickExample)) == ["s"])
    }

    @Test func aConflictIsReportedWhereItIsAndTheDefaultStays() {
        let config = Self.parse("""
            keys:
              resend: R
              pickExample: s
            """)
        #expect(config.diagnostics.map(\.description) == [
            "\(Self.file):3:3: error: s is already the key of toggleMode (switch stub / live) where pickExample applies too; "
                + "pickExample keeps its default keys (x)"
        ])
        #expect(Self.keys(config, .exchanges(.pickExample)) == ["x"] && Self.keys(config, .exchanges(.resend)) == ["R"])
    }

    /// Issue 49: the tree's commands were named `navigation(ExplorerApp.NavigationCommand.fold)`,
    /// in the conflict messages too. They have names a person types; the old ones still work.
    @Test func theTreeCommandsHaveReadableNamesAndTheOldOnesStillWork() {
        let config = Self.parse("keys: { fold: z, unfold: Z, toggleRowStyle: C-t }")
        #expect(config.diagnostics.isEmpty)
        #expect(Self.keys(config, .navigation(.fold)) == ["z"] && Self.keys(config, .navigation(.unfold)) == ["Z"])
        #expect(Self.keys(config, .navigation(.toggleRowStyle)) == ["C-t"])
        let old = Self.parse("keys:\n  navigation(ExplorerApp.NavigationCommand.toggleRowStyle): C-t\n")
        #expect(Self.keys(old, .navigation(.toggleRowStyle)) == ["C-t"])
        #expect(old.diagnostics.map(\.description) == [
            "\(Self.file):2:3: warning: 'navigation(ExplorerApp.NavigationCommand.toggleRowStyle)' is now called 'toggleRowStyle' (the old name still works)"
        ])
        let conflict = Self.parse("keys: { toggleMode: t }")
        #expect(conflict.diagnostics.map(\.message) == [
            "t is already the key of toggleRowStyle (endpoints: rows lead with titles or with paths) where toggleMode applies too; "
                + "toggleMode keeps its default keys (s)"
        ])
    }

    /// Issue 49: `send: C-Ü` was taken, leaving send with a key no terminal sends (Enter and C-s
    /// dead) while the pane still said "Enter sends". Such keys are refused where they are written.
    @Test func aKeyNoTerminalSendsIsRefusedWithItsPlace() {
        let config = Self.parse("""
            keys:
              send: C-Ü
              resend: [r, C-h]
              quit: S-q
              help: C-F1
              zoom: C-Up
            """)
        #expect(config.diagnostics.map { "\($0.line):\($0.column) \($0.message)" } == [
            "2:9 'C-Ü' is a key no terminal sends: terminals send Ctrl only with a letter a–z, Space, \\ ] ^ or _; send keeps its default keys",
            "3:15 'C-h' is a key no terminal sends: Ctrl-H arrives as Backspace; resend keeps its default keys",
            "4:9 'S-q' is a key no terminal sends: Shift is written as the character it gives (a capital, a symbol), not S-; quit keeps its default keys",
            "5:9 'C-F1' is a key no terminal sends: terminals send a function key with Ctrl or Shift as another function key (S-F1 is F13); "
                + "help keeps its default keys",
        ])
        #expect(Self.keys(config, .exchanges(.send)) == ["Enter", "C-s"] && Self.keys(config, .exchanges(.resend)) == ["r"])
        #expect(Self.keys(config, .panes(.zoom)) == ["C-Up"])
    }

    /// Every key of the default keymap is one a terminal sends.
    @Test func everyDefaultKeyIsOneATerminalSends() {
        for binding in Keymap.bindings {
            for case .key(let key) in binding.triggers {
                #expect(key.whyNoTerminalSendsIt == nil, "\(key) of \(binding.command): \(key.whyNoTerminalSendsIt ?? "")")
            }
        }
    }

    /// Issue 49: after `send` was rebound, the pane, the status bar and notices still named Enter.
    @Test func textsNameTheKeysInEffect() {
        var state = Self.state(Self.parse("keys: { send: C-x, showMessages: L }"))
        #expect(state.screen.contains("Not sent yet. C-x sends GET /items to local (STUB)."))
        #expect(state.screen.contains("C-x send"))
        #expect(!state.screen.contains("Enter sends") && !state.screen.contains("↵ send"))
        _ = state.press("r")
        #expect(state.notice == "Nothing to resend yet: press C-x to send.")
        // On the Edit tab Enter changes a row: the send key named there is the one that sends.
        var editing = Self.state(Self.parse("keys: { send: [Enter, C-x] }"))
        _ = editing.press("6")
        #expect(editing.screen.contains("Not sent yet. C-x sends"))
        #expect(editing.screen.contains("↵ change  C-x send"))
        // A problem summary names the key the log has.
        let problems = Self.state(Self.parse("keys:\n  sendd: C-s\n  help: Ctrl+H\n  showMessages: L\n"))
        #expect(problems.notice?.hasSuffix("(and 1 more: L lists them)") == true)
    }

    @Test func aTabsOwnKeyMayShadowThePanesAndATypingKeyIsItsOwn() {
        // The Body tab's keys win over the panes' on purpose; `typing.moveDown` names the second binding.
        let config = Self.parse("keys: { body.search: s, typing.moveDown: C-n, moveDown: n }")
        #expect(config.diagnostics.isEmpty)
        #expect(config.bindings.filter { $0.command == .moveDown }.map(\.scope) == [.moving, .typing])
        #expect(Self.keys(config, .body(.search)) == ["s"])
    }

    @Test func mistakesAreReportedWithTheirPlaceAndTheRestApplies() {
        let config = Self.parse("""
            keys:
              sendd: C-s
              help: Ctrl+H
              quit: Q
            theme: solarized
            colours: many
            """)
        #expect(config.diagnostics.map { "\($0.line):\($0.column) \($0.severity.rawValue)" } == ["2:3 error", "3:9 error", "5:8 error", "6:1 warning"])
        #expect(config.diagnostics[0].message.contains("no command 'sendd'"))
        #expect(config.diagnostics[1].message.contains("'Ctrl+H' is not a key"))
        #expect(config.diagnostics[2].message.contains("no theme 'solarized': one of dark, high-contrast, light"))
        #expect(Self.keys(config, .quit) == ["Q"] && Self.keys(config, .overlays(.help)) == ["?"])
        #expect(config.theme == .dark)
    }

    @Test func aBrokenFileGivesTheDefaultsAndSaysWhere() {
        let config = Self.parse("keys:\n  send: [C-s\ntheme: light\n")
        #expect(config.bindings == Keymap.bindings && config.theme == .dark)
        #expect(config.diagnostics.count == 1 && config.diagnostics[0].file == Self.file && config.diagnostics[0].line >= 2)
        #expect(config.diagnostics[0].message.hasSuffix("the defaults apply"))
        #expect(Self.parse("").diagnostics.isEmpty && Self.parse("# nothing yet\n").bindings == Keymap.bindings)
        #expect(Self.parse("- a list").diagnostics.first?.message.contains("the config is a mapping") == true)
    }

    @Test(arguments: ScreenSnapshotTests.sizes)
    func problemsAreSaidAtLaunchAndKeptInTheLog(size: Size) {
        let config = Self.parse("keys:\n  sendd: C-s\n  help: Ctrl+H\n")
        var state = Self.state(config, size: size)
        #expect(state.notice == "\(Self.file):2:3: error: no command 'sendd' in the keymap (docs/configuration.md lists them) (and 1 more: M lists them)")
        // Each problem once in the log (issue 49: the first was listed twice, as the bar's summary too).
        #expect(state.messages.entries.map(\.text) == config.diagnostics.map(\.description))
        assertSnapshot(state.screen, named: "config-problems-\(size)")
        _ = state.press("M")
        assertSnapshot(state.screen, named: "config-problems-log-\(size)")
    }

    @Test(arguments: ScreenSnapshotTests.sizes)
    func reboundKeysInTheStatusBarAndHelp(size: Size) {
        var state = Self.state(Self.parse("keys: { toggleMode: x, pickExample: s, help: F2 }"), size: size)
        assertSnapshot(state.screen, named: "config-rebound-\(size)")
        _ = state.press("F2")
        assertSnapshot(state.screen, named: "config-rebound-help-\(size)")
    }

    @Test func themesAreDefinedOnABase() {
        let config = Self.parse("""
            themes:
              mine:
                base: high-contrast
                key: bright-yellow bold
                statusBar: black on 250
                border: purple
                shadow: red
            theme: mine
            """)
        #expect(config.theme.name == "mine")
        #expect(config.theme.key == Style(foreground: .brightYellow, modifiers: .bold))
        #expect(config.theme.statusBar == Style(foreground: .black, background: .indexed(250)))
        #expect(config.theme.border == ThemePalette.highContrast.border)
        #expect(config.theme.dim == ThemePalette.highContrast.dim)
        #expect(config.diagnostics.map { "\($0.line):\($0.column)" } == ["6:13", "7:5"])
        #expect(config.diagnostics[0].message.contains("'purple' is not a colour"))
        #expect(config.diagnostics[1].message.contains("unknown role 'shadow'"))
    }

    /// The theme colours the frame: the focused pane's title is highlighted (reverse video, not
    /// colour alone), the others' borders are the theme's.
    @Test(arguments: ScreenSnapshotTests.sizes)
    func theThemeDrawsTheFrame(size: Size) {
        for theme in ThemePalette.builtIn {
            var config = ExplorerConfig.defaults
            config.theme = theme
            let state = Self.state(config, size: size)
            let buffer = AppView.render(state).buffer
            let layout = state.layout
            let unfocused = buffer[layout.environments.x, layout.environments.y]
            #expect(unfocused.foreground == theme.border.foreground ?? .default, "\(theme.name)")
            // The endpoints pane has focus at launch: its title's first letter.
            let y = layout.endpoints.y
            let titleX = (layout.endpoints.x..<layout.endpoints.x + layout.endpoints.width).first { buffer[$0, y].symbol.first?.isLetter == true } ?? 0
            let title = buffer[titleX, y]
            #expect(title.modifiers.contains(.reverse) || title.background != .default, "\(theme.name): the focused title is not highlighted")
            let statusBar = buffer[1, size.height - 1]
            #expect(statusBar.background == theme.statusBar.background ?? .default || theme.statusBar.modifiers.contains(.reverse), "\(theme.name)")
        }
    }

    /// On 8-colour terminals (`TERM=screen`) an unfocused border is grey, not black.
    @Test func brightBlackStaysVisibleWithEightColours() {
        #expect(Color.brightBlack.fitted(toColorCount: 8) == 7)
        #expect(Color.brightRed.fitted(toColorCount: 8) == 1)
        #expect(Color.brightBlack.fitted(toColorCount: 16) == 8)
    }

    @Test func theFileIsFoundAsXDGSays() {
        #expect(ExplorerConfig.path(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/ann"]) == "/x/config/apiexplorer/config.yaml")
        // Unset, empty or relative: the default under HOME.
        for xdg in [nil, "", "relative/config"] as [String?] {
            var environment = ["HOME": "/home/ann/"]
            environment["XDG_CONFIG_HOME"] = xdg
            #expect(ExplorerConfig.path(environment: environment) == "/home/ann/.config/apiexplorer/config.yaml")
        }
        #expect(ExplorerConfig.path(environment: [:]) == nil)
    }

    @Test func theFileIsReadFromTheConfigFolder() throws {
        let folder = try TemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.path, "HOME": "/nonexistent"]
        #expect(ExplorerConfigFile.read(environment: environment) == .defaults)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("apiexplorer"), withIntermediateDirectories: true)
        try Data("keys: { quit: Q }\ntheme: high-contrast\n".utf8).write(to: folder.url.appendingPathComponent("apiexplorer/config.yaml"))
        let config = ExplorerConfigFile.read(environment: environment)
        #expect(config.diagnostics.isEmpty && config.theme == .highContrast && Self.keys(config, .quit) == ["Q"])
    }

    @Test func everyBindingHasItsOwnName() {
        let names = Keymap.configNames(of: Keymap.bindings)
        #expect(Set(names).count == names.count)
        #expect(names.contains("send") && names.contains("body.search") && names.contains("tab.vars") && names.contains("typing.moveDown"))
        // The defaults rebound to themselves are no conflict.
        let all = zip(names, Keymap.bindings).compactMap { name, binding -> String? in
            let keys = binding.triggers.compactMap { if case .key(let key) = $0 { "\"\(key.description)\"" } else { nil } }
            return keys.isEmpty ? nil : "  \"\(name)\": [\(keys.joined(separator: ", "))]"
        }
        let config = Self.parse("keys:\n" + all.joined(separator: "\n"))
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics.map(\.description))")
    }

    /// The names a config file rebinds keys with are the person's: they stay the same whichever
    /// feature declares the command (a file written for an earlier version keeps working).
    @Test func theConfigNamesStayTheSame() {
        #expect(Keymap.configNames(of: Keymap.bindings) == [
            "moveDown", "moveUp", "pageDown", "pageUp", "moveToTop", "moveToBottom", "focusNext", "focusPrevious", "send", "resend",
            "cancelOrClose", "download", "sendMessage", "toggleMode", "nextEnvironment", "previousEnvironment", "pickExample", "copyCurl",
            "copyAs", "filter", "findEndpoint", "commandPalette", "fold", "unfold", "toggleRowStyle", "newRequest",
            "saveRequest", "setQueryItem", "setHeader", "tab.body", "tab.headers", "tab.errors", "tab.request", "tab.log", "tab.edit",
            "tab.vars", "tab.tests", "nextTab", "previousTab", "revealSecrets", "widenList", "narrowList", "zoom", "showDiagnostics",
            "showMessages", "showHistory", "showTokens", "showCookies", "runFlow", "runServiceTests", "help", "quit", "body.scrollLeft",
            "body.scrollRight", "body.toggleFold", "body.foldAll", "body.unfoldAll", "body.matchingBracket", "body.toggleWrap",
            "body.toggleLineNumbers", "body.search", "body.nextMatch", "body.previousMatch", "body.query", "body.jq", "body.copyValue",
            "body.save", "body.openInPager", "body.openInEditor", "editor.change", "editor.add", "editor.delete", "editor.toggle",
            "editor.undo", "editor.redo", "editor.revert", "editor.editBodyExternally", "editor.formatBody", "editor.writeToCatalog",
            "editor.saveAsNewEndpoint", "vars.change", "vars.clear", "tests.toggleFlow", "tests.nextStep", "tests.previousStep",
            "tests.openStep", "choose", "deleteItem", "signInAgain", "windows.revealSecrets", "close", "confirm", "decline", "accept",
            "acceptAndSend", "nextNamedMessage", "cancelInput", "typing.moveLeft", "typing.moveRight", "typing.moveWordLeft",
            "typing.moveWordRight", "typing.moveHome", "typing.moveEnd", "typing.backspace", "typing.deleteForward",
            "typing.deleteWordBackward", "typing.killToStart", "typing.killToEnd", "typing.moveDown", "typing.moveUp", "typing.insert",
            "anywhere.quit"
        ])
    }
}
