import ArgumentParser
import FoundationEssentials
import StateStore
import TextSupport

/// `apiexplorer man`: the manual page (roff), built offline from the command tree's own help,
/// so it never drifts from `--help`. Install it with
/// `apiexplorer man > /usr/local/share/man/man1/apiexplorer.1`.
struct ManCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "man",
        abstract: "Prints the manual page (roff) for apiexplorer.",
        shouldDisplay: false)

    func run() {
        Console.out(ManPage.render(root: APIExplorerCommand.self, version: APIExplorerVersion.current), terminator: "")
    }
}

/// Renders a command tree's help screens as a section 1 manual page.
enum ManPage {
    static func render(root: any ParsableCommand.Type, version: String) -> String {
        let configuration = root.configuration
        let name = configuration.commandName ?? "command"
        var roff = [
            ".TH \(name.uppercased()) 1 \"\" \"\(name) \(version)\" \"User Commands\"",
            ".SH NAME",
            "\(escape(name)) \\- \(escape(configuration.abstract))",
            ".SH SYNOPSIS",
            ".B \(escape(name))",
            "[\\fISUBCOMMAND\\fR] [\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
        ]
        roff += text(configuration.discussion.isEmpty ? configuration.abstract : configuration.discussion)
        roff += [".SH OPTIONS", ".nf"] + verbatim(root.helpMessage(includeHidden: false, columns: 78)) + [".fi", ".SH COMMANDS"]
        for (path, command) in subcommands(of: root, path: [name]) {
            roff.append(".SS \"\(escape(path.joined(separator: " ")))\"")
            roff += [".nf"] + verbatim(root.helpMessage(for: command, includeHidden: false, columns: 78)) + [".fi"]
        }
        roff += [
            ".SH EXIT STATUS",
            "0 success; 1 a mapped error (call), drift (check) or another failure; 2 a usage or catalog error.",
            ".SH ENVIRONMENT",
            ".TP", ".B APIEXPLORER_CATALOG", "The catalog folder when --catalog is not given.",
            ".TP", ".B XDG_STATE_HOME", "Where history and drift results are kept (default ~/.local/state).",
            ".SH FILES",
            ".TP", ".I $XDG_STATE_HOME/apiexplorer/\(HistoryStore.fileName)", "The request history's index (mode 0600, secrets masked).",
            ".TP", ".I $XDG_STATE_HOME/apiexplorer/\(HistoryStore.entriesFolderName)/", "Each request's record and bodies.",
            ".TP", ".I $XDG_STATE_HOME/apiexplorer/\(DriftStore.fileName)", "The last drift check result of each endpoint.",
            ".SH SEE ALSO",
            "curl(1). Shell completions: \\fBapiexplorer \\-\\-generate\\-completion\\-script bash|zsh|fish\\fR.",
        ]
        return roff.joined(separator: "\n") + "\n"
    }

    /// Every visible subcommand, depth first, with its full command path.
    static func subcommands(of command: any ParsableCommand.Type, path: [String]) -> [([String], any ParsableCommand.Type)] {
        command.configuration.subcommands.flatMap { sub -> [([String], any ParsableCommand.Type)] in
            let configuration = sub.configuration
            guard configuration.shouldDisplay else { return [] }
            let subPath = path + [configuration.commandName ?? "\(sub)".lowercased()]
            return [(subPath, sub)] + subcommands(of: sub, path: subPath)
        }
    }

    /// Paragraphs of running text.
    static func text(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? ".PP" : escape(String($0)) }
    }

    /// Preformatted lines (inside `.nf`/`.fi`).
    static func verbatim(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }
    }

    /// Escapes roff's specials: backslashes, hyphens, a leading `.` or `'` (which would start a
    /// request), and characters beyond ASCII (as `\[uXXXX]`, which every troff reads).
    static func escape(_ line: String) -> String {
        var escaped = ""
        for scalar in line.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default: escaped += "\\[u" + Hex.text(scalar.value, width: 4) + "]"
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
