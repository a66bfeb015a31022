import Catalog
import ExplorerApp
import FoundationEssentials
import SystemSupport
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EffectRunner {
    /// Opens a draft's body in `$EDITOR` (vi by default) on a temporary file, leaving the terminal
    /// to it meanwhile, and reports the text that came back (nil when unchanged).
    func editBody(key: DraftKey, text: String, isJSON: Bool) {
        let device = self.device
        let environment = self.environment
        let command = environment["VISUAL"].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 }
            ?? environment["EDITOR"].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 } ?? "vi"
        load {
            let path: String
            do throws(SystemError) {
                path = try TemporaryFile.create(Data(text.utf8), prefix: "apiexplorer-draft-", suffix: isJSON ? ".json" : ".txt")
            } catch {
                return .bodyEdited(key: key, text: nil, message: "Could not open the body: \(error).")
            }
            defer { unlink(path) }
            do {
                let status = try await device.suspend { () throws -> Int32 in
                    // Through the shell so `$EDITOR` may carry options (`code --wait`); the path is $1.
                    try ChildProcess.runInTerminal("/bin/sh", ["-c", "\(command) \"$1\"", "sh", path], environment: environment)
                }
                guard status == 0 else {
                    return .bodyEdited(key: key, text: nil, message: "\(command) exited with status \(status): the body was not changed.")
                }
            } catch {
                return .bodyEdited(key: key, text: nil, message: "Could not run \(command): \(error).")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                return .bodyEdited(key: key, text: nil, message: "The edited body could not be read back from \(path).")
            }
            var edited = String(decoding: data, as: UTF8.self)
            // Editors end files with a newline the person did not type.
            if edited.hasSuffix("\n"), !text.hasSuffix("\n") { edited.removeLast() }
            return .bodyEdited(key: key, text: edited == text ? nil : edited, message: edited == text ? "The body was not changed." : nil)
        }
    }
}

extension EffectRunner {
    /// Writes a draft into its catalog file (the catalog writer is not in this build yet).
    func writeDraft(key: DraftKey, edits: EndpointEdits) {
        inbox.post(.draftWritten(key: key, error: "writing drafts into catalog files is not in this build yet; the draft is kept."))
    }
}
