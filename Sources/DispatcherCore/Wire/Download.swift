/// Where a response body goes instead of memory (`RequestOptions.download`): straight to a file as
/// it arrives, so a body of any size costs no more memory than a chunk. Only a successful (2xx)
/// final response is written; an error's body is kept in memory as usual.
package struct DownloadDestination: Sendable, Hashable {
    /// The file the body ends in. Bytes go to `path.part` first and the file appears only complete.
    package var path: String
    /// Whether a `.part` file left by an earlier attempt is continued with `Range` (when the server
    /// answers `206` from that offset; a `200` starts over).
    package var resumes: Bool
    /// Whether an existing file at `path` is replaced; when not, the download fails rather than
    /// replace it (checked as the complete file is moved into place).
    package var replaces: Bool

    /// Makes a destination; an existing file is never replaced unless `replaces`.
    package init(path: String, resumes: Bool = true, replaces: Bool = false) {
        self.path = path
        self.resumes = resumes
        self.replaces = replaces
    }

    /// Where bytes go until the body is complete.
    package var partialPath: String { path + ".part" }
}

/// A body written to disk (`Response.downloadedFile`); the response's `body` is then empty.
package struct DownloadedFile: Sendable, Hashable {
    /// The complete file.
    package var path: String
    /// Its size in bytes.
    package var byteCount: Int
    /// Bytes that were already on disk from an earlier attempt and were not sent again.
    package var resumedFrom: Int

    /// Makes a description of a downloaded file.
    package init(path: String, byteCount: Int, resumedFrom: Int = 0) {
        self.path = path
        self.byteCount = byteCount
        self.resumedFrom = resumedFrom
    }
}
