import FoundationEssentials

extension URL {
    /// The file URL of `name` (a file name, or a relative path such as `fixtures/ca.pem`) in this
    /// folder. Joined as text: `appendingPathComponent`'s first call builds URL's percent-encoding
    /// tables, which a launch would build only to name its state files (docs/performance.md).
    package func appendingFilePath(_ name: String) -> URL {
        URL(fileURLWithPath: URL.joinedFilePath(path, name))
    }

    /// `folder/name`, with one slash between them.
    package static func joinedFilePath(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
