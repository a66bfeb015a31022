import Foundation

/// A unique folder under the system's temporary directory, removed with everything in it when the
/// value goes away. Tests never touch the user's own files.
package final class TemporaryDirectory: Sendable {
    /// The folder.
    package let url: URL

    /// Makes the folder; `prefix` starts its name (for people looking in /tmp).
    package init(prefix: String = "apiexplorer-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The folder's path.
    package var path: String { url.path }

    /// Writes text to a file in the folder, making the folders on the way.
    package func write(_ relativePath: String, _ text: String) throws {
        try write(relativePath, Data(text.utf8))
    }

    /// Writes bytes to a file in the folder, making the folders on the way.
    package func write(_ relativePath: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// A file's text, nil when it cannot be read.
    package func read(_ relativePath: String) -> String? {
        FileManager.default.contents(atPath: url.appendingPathComponent(relativePath).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a file (or folder) is there.
    package func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(relativePath).path)
    }

    /// Every file name in the folder (not recursive), sorted.
    package func fileNames(in relativePath: String = "") -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(relativePath).path))?.sorted() ?? []
    }
}
