import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request history: one JSON object per line in `history.jsonl` in the state directory,
/// readable by the owner only (0600), newest last; `entries` gives at most the newest `limit`.
/// Entries are masked before they are given here (see `HistoryEntry.init(exchange:…)`).
///
/// Appends are a single `write` under an exclusive `flock` on a lock file beside the history
/// (which also holds the entry count), so the TUI and `apiexplorer call` can write at the same
/// time. When the file has grown a tenth past `limit` it is rewritten with the newest `limit`
/// to a temporary file that replaces it by `rename`, so a crash leaves either the old or the new
/// history, never half of one.
public struct HistoryStore: Sendable {
    /// The file name in the state directory.
    public static let fileName = "history.jsonl"
    /// How many entries are kept by default.
    public static let defaultLimit = 500

    /// The folder holding the history.
    public let directory: URL
    /// The most entries kept.
    public let limit: Int

    /// Makes a store in `directory` (the state directory by default), keeping `limit` entries.
    public init(directory: URL = StateDirectory.url(), limit: Int = HistoryStore.defaultLimit) {
        self.directory = directory
        self.limit = max(1, limit)
    }

    /// The history file.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    private var lockURL: URL { directory.appendingPathComponent(".history.lock") }

    /// Adds an entry, dropping the oldest beyond the limit. Costs one small read and write of the
    /// lock file (which holds the entry count) besides the append; the history is read and
    /// rewritten only when it has grown a tenth past the limit.
    public func append(_ entry: HistoryEntry) throws(InteropError) {
        let line: Data
        do {
            line = try HistoryStore.encoder.encode(entry) + Data([UInt8(ascii: "\n")])
        } catch {
            throw .file("cannot encode the history entry: \(error)")
        }
        try StateDirectory.create(directory)
        try withLock { (lock: Int32) throws(InteropError) in
            let existed = FileManager.default.fileExists(atPath: fileURL.path)
            let descriptor = open(fileURL.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw .file("cannot open \(fileURL.path): \(systemError())") }
            defer { close(descriptor) }
            try writeAll(line, to: descriptor, path: fileURL.path)
            // The mode is set again in case the file was made by something else.
            fchmod(descriptor, 0o600)
            var count = (existed ? HistoryStore.readCount(lock) : 0) ?? countLines()
            count += 1
            if count > limit + slack {
                try compact()
                count = limit
            }
            HistoryStore.writeCount(count, to: lock)
        }
    }

    /// How far past the limit the file may grow before it is trimmed (so trimming is rare).
    private var slack: Int { max(1, limit / 10) }

    /// The newest `limit` entries (all when nil), oldest first. Lines that do not decode (a
    /// newer format, a damaged line) are skipped.
    public func entries(limit: Int? = nil) throws(InteropError) -> [HistoryEntry] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            if FileManager.default.fileExists(atPath: fileURL.path) { throw .file("cannot read \(fileURL.path)") }
            return []
        }
        let lines = HistoryStore.lines(of: data).suffix(max(0, min(limit ?? self.limit, self.limit)))
        let decoder = HistoryStore.decoder
        return lines.compactMap { try? decoder.decode(HistoryEntry.self, from: $0) }
    }

    /// The entry with `id`, if it is still kept.
    public func entry(id: String) throws(InteropError) -> HistoryEntry? {
        try entries().last { $0.id == id }
    }

    /// Empties the history.
    public func removeAll() throws(InteropError) {
        try withLock { (lock: Int32) throws(InteropError) in
            HistoryStore.writeCount(0, to: lock)
            guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
            do {
                try FileManager.default.removeItem(at: fileURL)
            } catch {
                throw .file("cannot remove \(fileURL.path): \(error.localizedDescription)")
            }
        }
    }

    /// Keeps the newest `limit` entries.
    private func compact() throws(InteropError) {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return }
        var kept = Data()
        for line in HistoryStore.lines(of: data).suffix(limit) {
            kept.append(line)
            kept.append(UInt8(ascii: "\n"))
        }
        try AtomicFile.write(kept, to: fileURL, permissions: 0o600)
    }

    private func countLines() -> Int {
        FileManager.default.contents(atPath: fileURL.path).map { HistoryStore.lines(of: $0).count } ?? 0
    }

    /// The entry count kept in the lock file; nil when it holds none.
    private static func readCount(_ lock: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let read = pread(lock, &buffer, buffer.count, 0)
        guard read > 0 else { return nil }
        return Int(String(decoding: buffer.prefix(read), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func writeCount(_ count: Int, to lock: Int32) {
        let text = Array("\(count)\n".utf8)
        guard ftruncate(lock, 0) == 0 else { return }
        _ = pwrite(lock, text, text.count, 0)
    }

    /// Runs `body` holding the exclusive lock; `body` gets the lock file's descriptor.
    private func withLock<T>(_ body: (Int32) throws(InteropError) -> T) throws(InteropError) -> T {
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file("cannot open \(lockURL.path): \(systemError())") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .file("cannot lock \(lockURL.path): \(systemError())") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body(descriptor)
    }

    /// The non-empty lines of `data`.
    static func lines(of data: Data) -> [Data] {
        data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Data($0) }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(HistoryStore.timestamp(date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = HistoryStore.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return decoder
    }()

    /// `2025-01-31T12:00:00.123Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
