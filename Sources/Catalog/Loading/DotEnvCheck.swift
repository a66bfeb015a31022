import FoundationEssentials
import SystemSupport
import TextSupport

/// Diagnostics for the `.env` beside a catalog: lines that cannot be read, and a warning when the
/// file would be committed (it holds secrets).
enum DotEnvCheck {
    static func diagnostics(for source: CatalogSource, fileSystem: any CatalogFileSystem) -> [Diagnostic] {
        guard let directory = source.directory else { return [] }
        let shown = source.displayPath(of: ".env")
        let data: Data
        do throws(FileReadError) {
            data = try fileSystem.contents(of: ".env", atMost: DotEnv.maximumFileSize)
        } catch {
            if error.isMissing { return [] }
            return [Diagnostic(file: shown, line: 1, column: 1, severity: .error, message: DotEnv.unreadable(error))]
        }
        var diagnostics = DotEnv.parse(String(decoding: data, as: UTF8.self)).problems.map { problem in
            Diagnostic(file: shown, line: problem.line, column: problem.column, severity: .warning, message: "\(problem.message); the line is ignored")
        }
        if isInGitRepository(directory), !isGitIgnored(directory) {
            diagnostics.append(Diagnostic(
                file: shown, line: 1, column: 1, severity: .warning,
                message: "this file holds secrets but no .gitignore lists it: add '.env' to .gitignore"))
        }
        return diagnostics
    }

    /// Whether a folder or one of its parents holds `.git`.
    static func isInGitRepository(_ directory: URL) -> Bool {
        ancestors(of: directory).contains { FileManager.default.fileExists(atPath: $0.appendingPathComponent(".git").path) }
    }

    /// Whether a `.gitignore` in the folder or a parent (up to the repository root) ignores `.env`
    /// files there. A small reading of gitignore: the usual ways people write it.
    static func isGitIgnored(_ directory: URL) -> Bool {
        for folder in ancestors(of: directory) {
            let relative = String(directory.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))
                .trimming { $0 == "/" }
            let inside = relative.isEmpty ? ".env" : "\(relative)/.env"
            if let data = FileContents.read(atPath: folder.appendingPathComponent(".gitignore").path, atMost: DotEnv.maximumFileSize) {
                let patterns = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                    .map { $0.trimmedSpaces }
                let accepted: Set<String> = [".env", "*.env", ".env*", "**/.env", "/\(inside)", inside, "\(inside)*", "**/.env*"]
                if patterns.contains(where: accepted.contains) { return true }
            }
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) { return false }
        }
        return false
    }

    private static func ancestors(of directory: URL) -> [URL] {
        var folders: [URL] = []
        var current = directory.standardizedFileURL
        for _ in 0..<64 {
            folders.append(current)
            let parent = current.deletingLastPathComponent().standardizedFileURL
            if parent.path == current.path { break }
            current = parent
        }
        return folders
    }
}
