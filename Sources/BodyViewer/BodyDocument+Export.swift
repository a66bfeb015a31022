import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a body could not be written.
package enum BodySaveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The destination exists and overwriting was not asked for.
    case fileExists(path: String)
    /// Writing failed.
    case couldNotWrite(path: String, reason: String)

    /// What went wrong, for the person.
    package var description: String {
        switch self {
        case .fileExists(let path): "\(path) already exists"
        case .couldNotWrite(let path, let reason): "could not write \(path): \(reason)"
        }
    }
}

/// How a value is written out for copying.
package enum BodyValueFormat: Sendable, Hashable {
    /// One line, no insignificant whitespace.
    case compact
    /// Indented by two spaces per level, as the view shows it.
    case pretty
}

extension BodyDocument {
    /// Writes the raw body to `url` atomically (a temporary file in the same directory, then a link or
    /// rename). Never replaces an existing file unless `overwrite` is true: it throws `.fileExists` instead.
    package func save(to url: URL, overwrite: Bool = false) throws(BodySaveError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let temporary = try Self.writeTemporary(data, directory: directory, prefix: ".\(url.lastPathComponent).",
            suffix: ".partial", reportingAs: path)
        defer { unlink(temporary) }
        if overwrite {
            guard rename(temporary, path) == 0 else { throw .couldNotWrite(path: path, reason: Self.errnoText()) }
            return
        }
        // link() fails with EEXIST instead of replacing: no window in which another file could be lost.
        if link(temporary, path) == 0 { return }
        let linkError = errno
        if linkError == EEXIST { throw .fileExists(path: path) }
        // Some file systems cannot hard-link: claim the name exclusively, then rename over the claim.
        let claim = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard claim >= 0 else {
            throw errno == EEXIST ? .fileExists(path: path) : .couldNotWrite(path: path, reason: Self.errnoText())
        }
        close(claim)
        guard rename(temporary, path) == 0 else {
            let reason = Self.errnoText()
            unlink(path)
            throw .couldNotWrite(path: path, reason: reason)
        }
    }

    /// Writes the body to a new file in `directory` (default: the temporary directory) for `$PAGER` or
    /// `$EDITOR`; `pretty` writes the JSON view's text instead of the raw bytes. The caller runs the
    /// program and removes the file.
    package func writeTemporaryFile(directory: URL? = nil, pretty: Bool = false) throws(BodySaveError) -> URL {
        let directory = directory?.path ?? TemporaryFile.directory
        let contents = pretty && isFoldable ? Data(prettyText().utf8) : data
        let path = try Self.writeTemporary(contents, directory: directory, prefix: "apiexplorer-body-",
            suffix: "." + fileExtension, reportingAs: directory)
        return URL(fileURLWithPath: path)
    }

    /// A file name extension for the body's kind.
    package var fileExtension: String {
        switch kind {
        case .json: "json"
        case .text(.xml): "xml"
        case .text(.html): "html"
        case .text(.plain): "txt"
        case .binary: "bin"
        }
    }

    /// The whole view as text, every line unfolded.
    func prettyText() -> String {
        var text = ""
        for line in 0..<lineCount {
            if line > 0 { text += "\n" }
            text += plainText(ofLine: line)
        }
        return text + "\n"
    }

    /// The JSON text of the value on `line` (a closing bracket stands for its container), for copying;
    /// `includingKey` prefixes a member's key. Text and hex lines give their own text. Nil outside the body.
    package func valueText(atLine line: Int, format: BodyValueFormat = .pretty, includingKey: Bool = false) -> String? {
        guard line >= 0, line < lineCount else { return nil }
        guard case .json(let index) = storage else { return plainText(ofLine: line) }
        return withBytes { bytes in
            var node = line
            if index.kind(ofLine: line) == .close, let container = index.enclosingContainer(ofLine: line) {
                node = index.openLine(of: container)
            }
            let evaluator = JSONIndexEvaluator(index: index, bytes: bytes, shouldCancel: { false })
            var text = ""
            if includingKey, index.isMember(node) {
                let start = index.offset(ofLine: node)
                let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<JSONLineLayout.endOfString(bytes, from: start)]),
                    as: UTF8.self)
                text = key + (format == .compact ? ":" : ": ")
            }
            switch format {
            case .compact:
                text += Self.compact(UnsafeRawBufferPointer(rebasing: bytes[evaluator.valueRange(ofLine: node)]))
            case .pretty:
                let last = evaluator.end(of: node)
                let baseIndent = index.depth(ofLine: node) * 2
                for current in node...last {
                    if current > node { text += "\n" }
                    var pieces = layout(ofLine: current, folded: false, bytes: bytes).pieces
                    // Indent relative to the value; drop the key from its first line and the comma from its last.
                    if case .spaces(let count) = pieces.first { pieces[0] = .spaces(count - baseIndent) }
                    if current == node, index.isMember(node), pieces.count > JSONLineLayout.keyPieces {
                        pieces.removeSubrange(1...JSONLineLayout.keyPieces)
                    }
                    if current == last, let piece = pieces.last, JSONLineLayout.isComma(piece, bytes) { pieces.removeLast() }
                    text += Self.text(of: pieces, bytes: bytes)
                }
            }
            return text
        }
    }

    /// JSON text without whitespace outside strings.
    static func compact(_ bytes: UnsafeRawBufferPointer) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == Byte.backslash { escaped = true } else if byte == Byte.quote { inString = false }
                output.append(byte)
            } else if !Byte.isWhitespace(byte) {
                if byte == Byte.quote { inString = true }
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes `contents` to a new file (mkstemps) and returns its path.
    private static func writeTemporary(_ contents: Data, directory: String, prefix: String, suffix: String,
        permissions: mode_t = 0o600, reportingAs reported: String) throws(BodySaveError) -> String
    {
        do throws(SystemError) {
            return try TemporaryFile.create(contents, in: directory, prefix: prefix, suffix: suffix, permissions: permissions)
        } catch {
            throw .couldNotWrite(path: reported, reason: error.reason)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
