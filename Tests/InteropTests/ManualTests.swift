import ExplorerApp
import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// The manual page and shell completions, generated offline from the command tree.
    @Suite(.offPool) struct ManualTests {
        @Test func installPutsTheBinaryTheManualAndCompletionsUnderThePrefix() async throws {
            let prefix = try TemporaryDirectory()
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("scripts/install")
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = "/usr/bin:/bin"  // the prefix is not on PATH: the script says so
            let result = await (try ChildProcess("/bin/bash", [script.path, "--binary", CLI.binary.path, prefix.path],
                environment: environment, directory: prefix.path)).finish()
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("Installed apiexplorer"))
            #expect(result.output.contains("is not on your PATH"))
            let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
            for file in ["bin/apiexplorer", "share/man/man1/apiexplorer.1", "share/bash-completion/completions/apiexplorer",
                "share/zsh/site-functions/_apiexplorer", "share/fish/vendor_completions.d/apiexplorer.fish"] {
                #expect(size(prefix.url.appendingPathComponent(file).path) > 0, "\(file)")
            }
            #expect(prefix.read("share/man/man1/apiexplorer.1")?.hasPrefix(".TH APIEXPLORER 1") == true)
            #expect(!prefix.fileNames(in: "bin").contains(".apiexplorer.new"))
            // The installed binary is stripped and runs.
            let installed = prefix.url.appendingPathComponent("bin/apiexplorer").path
            let version = await (try ChildProcess(installed, ["--version"], environment: [:], directory: prefix.path)).finish()
            #expect(version.status == 0 && !version.output.isEmpty)
            #expect(size(installed) < size(CLI.binary.path), "debug information is left out")
        }

        @Test func exploreHelpListsEveryKeyOfTheKeymap() async throws {
            let state = try TemporaryDirectory()
            let result = try await CLI.run(["explore", "--help"], state: state)
            #expect(result.status == 0)
            // Generated from the keymap: one line per scope, each binding's keys and help.
            let help = result.output.replacing("\n", with: " ").split(separator: " ").joined(separator: " ")
            for line in Keymap.plainText().split(separator: "\n") {
                #expect(help.contains(line.split(separator: " ").joined(separator: " ")), "\(line)")
            }
        }

        @Test func manPageCoversEveryVisibleCommand() async throws {
            let state = try TemporaryDirectory()
            let result = try await CLI.run(["man"], state: state)
            #expect(result.status == 0)
            let page = result.output
            #expect(page.hasPrefix(".TH APIEXPLORER 1 "))
            for command in ["validate", "mock", "list", "call", "check", "record", "history", "export curl", "export har", "import openapi", "import curl", "import postman", "import insomnia", "import http", "export http", "import har", "export httpie", "export python", "export javascript", "export openapi", "export swift", "describe", "export grpcurl"] {
                #expect(page.contains(".SS \"apiexplorer \(command)\""), "\(command)")
            }
            #expect(!page.contains(".SS \"apiexplorer man\""))
            #expect(page.contains("\\-\\-include\\-unsafe"))
            // Only ASCII reaches troff, and no text line starts a request by accident.
            #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
            let requests: Set<String> = [".TH", ".SH", ".SS", ".B", ".I", ".TP", ".PP", ".nf", ".fi"]
            for line in page.split(separator: "\n") where line.hasPrefix(".") {
                #expect(requests.contains(String(line.split(separator: " ")[0])), "\(line)")
            }

            // groff, when installed, reads it without a warning.
            let groff = URL(fileURLWithPath: "/usr/bin/groff")
            guard FileManager.default.isExecutableFile(atPath: groff.path) else { return }
            let file = state.url.appendingPathComponent("apiexplorer.1")
            try result.stdout.write(to: file)
            let process = Process()
            process.executableURL = groff
            process.arguments = ["-man", "-Tutf8", "-ww", "-z", file.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(warnings.isEmpty, "\(warnings)")
        }

        @Test func completionScriptsKnowTheCommands() async throws {
            let state = try TemporaryDirectory()
            for shell in ["bash", "zsh", "fish"] {
                let result = try await CLI.run(["--generate-completion-script", shell], state: state)
                #expect(result.status == 0)
                for command in ["call", "check", "record", "history", "export", "import"] {
                    #expect(result.output.contains(command), "\(shell): \(command)")
                }
                #expect(result.output.contains("include-unsafe"), "\(shell)")
            }
        }
    }
}
