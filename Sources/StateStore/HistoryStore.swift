import FoundationEssentials
import JSONSupport
import TextSupport
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request history in the state directory, readable by the owner only (0600 files in a 0700
/// folder), newest last, at most `limit` entries. Entries are masked before they are given here
/// (see `HistoryEntry.init(exchange:…)`).
///
/// Layout: `history.jsonl` is the index, one `HistorySummary` per line: all the explorer reads at
/// launch. Each entry's whole record is in `history/ID.json`, with its bodies beside it as they
/// were (`ID.request`, `ID.response`: bytes, not JSON-escaped text), cut at `HistoryEntry.defaultBodyLimit`.
///
/// Appends write the entry's files first, then add its index line with a single `write` under an
/// exclusive `flock` on a lock file (which also holds the entry count), so the explorer and
/// `apiexplorer call` can write at the same time and the index never names a missing entry. When
/// the index has grown a tenth past `limit` it is rewritten with the newest `limit` lines (to a
/// temporary file that replaces it by `rename`) and the dropped entries' files are removed.
package struct HistoryStore: Sendable {
    /// The index's file name in the state directory.
    package static let fileName = "history.jsonl"
    /// The folder of whole entries in the state directory.
    package static let entriesFolderName = "history"
    /// How many entries are kept by default.
    package static let defaultLimit = 500
    /// The largest index read: 500 summaries are ~200 KiB; an index of the earlier format, whole
    /// entries on each line, a few MiB. A larger one is not read (the list is empty) nor rewritten.
    static let maximumIndexSize = 64 << 20
    /// The largest record read (the bodies are files of their own).
    static let maximumRecordSize = 16 << 20
    /// The largest body file read back: the largest body a request may receive by default is
    /// 256 MiB; a larger file is shown without its body.
    static let maximumBodyFileSize = 1 << 30

    /// The folder holding the history, as a path.
    package let directoryPath: String
    /// The most entries kept.
    package let limit: Int

    /// Makes a store in the folder at `directoryPath` (the state directory by default), keeping
    /// `limit` entries.
    package init(directoryPath: String = StateDirectory.path(), limit: Int = HistoryStore.defaultLimit) {
        self.directoryPath = directoryPath
        self.limit = max(1, limit)
    }

    /// Makes a store in `directory`, keeping `limit` entries.
    package init(directory: URL, limit: Int = HistoryStore.defaultLimit) {
        self.init(directoryPath: directory.path, limit: limit)
    }

    /// The folder holding the history.
    package var directory: URL { URL(fileURLWithPath: directoryPath) }
    /// The index file.
    package var fileURL: URL { URL(fileURLWithPath: indexPath) }
    /// The folder of whole entries.
    package var entriesURL: URL { URL(fileURLWithPath: entriesPath) }
    // The same as paths, for the system calls: built as text, since each URL joining costs more
    // than the append it names, and a URL's first `path` far more.
    private var indexPath: String { URL.joinedFilePath(directoryPath, Self.fileName) }
    private var entriesPath: String { URL.joinedFilePath(directoryPath, Self.entriesFolderName) }
    private var lockPath: String { URL.joinedFilePath(directoryPath, ".history.lock") }

    // MARK: Writing

    /// Adds an entry, dropping the oldest beyond the limit. Costs the entry's own small files, and
    /// one small read and write of the lock file besides the index append; the index is read and
    /// rewritten only when it has grown a tenth past the limit.
    package func append(_ entry: HistoryEntry) throws(SystemError) {
        let line = Array(HistorySummary(entry).json.compactText.utf8) + [UInt8(ascii: "\n")]
        try StateDirectory.create(entriesURL)
        do {
            try writeEntryFiles(entry)
        } catch {
            // A full disk must not leave the files of an entry the index will never name.
            for part in [Part.record, .request, .response] { unlink(path(of: entry.id, part)) }
            throw error
        }
        let indexPath = indexPath
        try withLock { (lock: Int32) throws(SystemError) in
            let existed = FileStatus.exists(indexPath)
            // Not blocking: a FIFO planted at the index would hang the append in `open`.
            let descriptor = open(indexPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw SystemError("cannot open \(indexPath)") }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw SystemError("cannot append to \(indexPath): it is not a regular file", number: EINVAL)
            }
            try FileDescriptor.writeAll(line, to: descriptor, path: indexPath)
            // The mode is set again in case the file was made by something else.
            fchmod(descriptor, 0o600)
            var count = (existed ? HistoryStore.readCount(lock) : 0) ?? readIndex().count
            count += 1
            if count > limit + slack {
                try compact()
                count = limit
            }
            HistoryStore.writeCount(count, to: lock)
        }
    }

    /// How far past the limit the index may grow before it is trimmed (so trimming is rare).
    private var slack: Int { max(1, limit / 10) }

    /// Writes an entry's record and bodies (each file is new: the id is unique).
    private func writeEntryFiles(_ entry: HistoryEntry) throws(SystemError) {
        var record = entry
        let requestBody = record.request.body.map(\.data)
        let responseBody = record.response.map(\.body.data)
        // The bodies go to files of their own; the record keeps their sizes and whether they were cut.
        record.request.body?.text = ""
        record.response?.body.text = ""
        let json = Data(utf8: record.json.compactText)
        if let requestBody { try writeNewFile(requestBody, to: path(of: entry.id, .request)) }
        if let responseBody { try writeNewFile(responseBody, to: path(of: entry.id, .response)) }
        try writeNewFile(json, to: path(of: entry.id, .record))
    }

    private func writeNewFile(_ data: Data, to path: String) throws(SystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemError("cannot create \(path)") }
        defer { close(descriptor) }
        try FileDescriptor.writeAll(data, to: descriptor, path: path)
    }

    // MARK: Reading

    /// The newest `limit` summaries (all kept when nil), oldest first: what the history list
    /// shows, read from the index alone. Lines that do not read (a damaged line, a newer format)
    /// are skipped.
    package func summaries(limit: Int? = nil) -> [HistorySummary] {
        Array(readIndex().suffix(max(0, min(limit ?? self.limit, self.limit))))
    }

    /// The newest `limit` whole entries (all kept when nil), oldest first. Entries whose record
    /// cannot be read are skipped.
    package func entries(limit: Int? = nil) throws(SystemError) -> [HistoryEntry] {
        if !FileStatus.exists(indexPath) { return [] }
        guard FileManager.default.isReadableFile(atPath: indexPath) else { throw SystemError("cannot read \(indexPath)", number: EACCES) }
        return summaries(limit: limit).compactMap { entry(id: $0.id) }
    }

    /// The entry with `id`, if it is still kept.
    package func entry(id: String) -> HistoryEntry? {
        guard let data = FileContents.read(atPath: path(of: id, .record), atMost: Self.maximumRecordSize) else { return earlierFormatEntry(id: id) }
        guard var entry = try? HistoryStore.decoder.decode(HistoryEntry.self, from: data) else { return nil }
        if entry.request.body != nil {
            let bytes = FileContents.read(atPath: path(of: id, .request), atMost: Self.maximumBodyFileSize) ?? Data()
            entry.request.body?.restore(bytes)
        }
        if entry.response != nil {
            let bytes = FileContents.read(atPath: path(of: id, .response), atMost: Self.maximumBodyFileSize) ?? Data()
            entry.response?.body.restore(bytes)
        }
        return entry
    }

    /// Empties the history.
    package func removeAll() throws(SystemError) {
        try withLock { (lock: Int32) throws(SystemError) in
            HistoryStore.writeCount(0, to: lock)
            if unlink(indexPath) != 0, errno != ENOENT { throw SystemError("cannot remove \(indexPath)") }
            try? FileManager.default.removeItem(at: entriesURL)
        }
    }

    // MARK: Files

    private enum Part: String {
        case record = "json", request, response
    }

    private func path(of id: String, _ part: Part) -> String {
        entriesPath + "/" + Self.fileName(of: id, part)
    }

    private static func fileName(of id: String, _ part: Part) -> String {
        entryFileName(forID: id) + "." + part.rawValue
    }

    /// An entry's file name: its id, which is a UUID; anything else is made safe as a file name
    /// (letters, digits, `-` and `_` kept, any other character `_`). A UUID is checked as bytes:
    /// going through Characters loads Unicode's property tables, a quarter of a millisecond of a `call`.
    static func entryFileName(forID id: String) -> String {
        let isPlain = id.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        if isPlain { return id }
        return id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? String($0) : "_" }.joined()
    }

    private func readIndex() -> [HistorySummary] {
        guard let data = FileContents.read(atPath: indexPath, atMost: Self.maximumIndexSize) else { return [] }
        return data.withUnsafeBytes { raw in
            var summaries: [HistorySummary] = []
            HistoryStore.forEachLine(in: raw) { line in
                // The plain lines `json` writes straight from their bytes; any other the general way.
                if let summary = HistorySummary(indexLine: line) ?? HistoryStore.summary(Data(line)) { summaries.append(summary) }
            }
            return summaries
        }
    }

    /// An index line; a line of the earlier format (the whole entry on one line) is summarised.
    static func summary(_ line: Data) -> HistorySummary? {
        guard let value = try? JSONValue.parse(line) else { return nil }
        if let summary = HistorySummary(json: value) { return summary }
        return (try? decoder.decode(HistoryEntry.self, from: line)).map(HistorySummary.init)
    }

    /// An entry written whole on its index line by an earlier version.
    private func earlierFormatEntry(id: String) -> HistoryEntry? {
        guard let data = FileContents.read(atPath: indexPath, atMost: Self.maximumIndexSize) else { return nil }
        let needle = Data("\"id\":\"\(id)\"".utf8)
        for line in HistoryStore.lines(of: data) where line.firstRange(of: needle) != nil {
            if let entry = try? HistoryStore.decoder.decode(HistoryEntry.self, from: line), entry.id == id { return entry }
        }
        return nil
    }

    /// Keeps the newest `limit` entries and removes the files of the others.
    private func compact() throws(SystemError) {
        // An index too large to read is left as it is (never replaced by a shorter one).
        guard let data = FileContents.read(atPath: indexPath, atMost: Self.maximumIndexSize) else { return }
        var kept = Data()
        var keptIDs = Set<String>()
        for line in HistoryStore.lines(of: data).suffix(limit) {
            kept.append(line)
            kept.append(UInt8(ascii: "\n"))
            if let summary = HistoryStore.summary(line) { keptIDs.insert(summary.id) }
        }
        try AtomicFile.write(kept, to: fileURL, permissions: 0o600)
        let entriesPath = entriesPath
        let names = (try? DirectoryEntries.names(in: entriesPath)) ?? []
        let keptNames = Set(keptIDs.flatMap { id in [Part.record, .request, .response].map { Self.fileName(of: id, $0) } })
        for name in names where !keptNames.contains(name) {
            unlink(entriesPath + "/" + name)
        }
    }

    /// Removes the files of entries the index does not name (a process killed between writing
    /// them and naming them, a disk that filled up), older than `age` so that an entry being
    /// written right now is left alone. What a start cleans; returns how many were removed.
    @discardableResult
    package func removeOrphanedFiles(olderThan age: Duration = .seconds(60)) -> Int {
        guard let names = try? DirectoryEntries.names(in: entriesPath), !names.isEmpty else { return 0 }
        let named = Set(readIndex().map { Self.entryFileName(forID: $0.id) })
        let cutoff = time(nil) - time_t(age.components.seconds)
        var removed = 0
        for name in names {
            guard let dot = name.lastIndex(of: "."), Part(rawValue: String(name[name.index(after: dot)...])) != nil,
                !named.contains(String(name[..<dot]))
            else { continue }
            let path = entriesPath + "/" + name
            guard let modified = FileStatus.modified(path, type: S_IFREG), modified < cutoff else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// The entry count kept in the lock file; nil when it holds none.
    private static func readCount(_ lock: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let read = pread(lock, &buffer, buffer.count, 0)
        guard read > 0 else { return nil }
        // Digits as bytes (the file holds `COUNT\n`): Character.isNumber would load Unicode's tables.
        return Int(String(decoding: buffer.prefix(read).filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self))
    }

    private static func writeCount(_ count: Int, to lock: Int32) {
        let text = Array("\(count)\n".utf8)
        guard ftruncate(lock, 0) == 0 else { return }
        _ = pwrite(lock, text, text.count, 0)
    }

    /// Runs `body` holding the exclusive lock; `body` gets the lock file's descriptor.
    private func withLock<T>(_ body: (Int32) throws(SystemError) -> T) throws(SystemError) -> T {
        try StateDirectory.create(directory)
        let lockPath = lockPath
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemError("cannot open \(lockPath)") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SystemError("cannot lock \(lockPath)") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body(descriptor)
    }

    /// The non-empty lines of `data`.
    static func lines(of data: Data) -> [Data] {
        data.withUnsafeBytes { raw in
            var lines: [Data] = []
            forEachLine(in: raw) { lines.append(Data($0)) }
            return lines
        }
    }

    /// Calls `body` with each non-empty line of `raw` (newlines left out), found by memchr: Data's
    /// generic split walks the index a byte at a time, at every launch.
    static func forEachLine(in raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard let base = raw.baseAddress else { return }
        var start = 0
        while start < raw.count {
            let end = memchr(base + start, 0x0A, raw.count - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? raw.count
            if end > start { body(UnsafeRawBufferPointer(start: base + start, count: end - start)) }
            start = end + 1
        }
    }

    // MARK: JSON

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

    /// `2025-01-31T12:00:00.123Z`: UTC, milliseconds cut (not rounded), exactly as
    /// `ISO8601FormatStyle` writes it. Written by hand for the years 1600–9999 (the style uses the
    /// Julian calendar before 1582): the style sets up a calendar on first use, in every
    /// `apiexplorer call`.
    package static func timestamp(_ date: Date) -> String {
        let general = { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        // The style takes the fraction of the seconds since 2001, as nanoseconds, then cuts it.
        let sinceReference = date.timeIntervalSinceReferenceDate
        let wholeSeconds = sinceReference.rounded(.down)
        guard wholeSeconds.isFinite, abs(wholeSeconds) < 1e12 else { return general() }
        let milliseconds = Int((sinceReference - wholeSeconds) * 1_000_000_000) / 1_000_000
        let total = Int(wholeSeconds) + 978_307_200  // seconds since 1970
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilDate.fromDays(days)
        guard (1600...9999).contains(year) else { return general() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func append(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        append(year, digits: 4); bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2); bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2); bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2); bytes.append(UInt8(ascii: "."))
        append(milliseconds, digits: 3); bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func date(from text: String) -> Date? {
        timestampDate(text) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// Reads what `timestamp` writes (`2025-01-31T12:00:00.123Z`) by hand: the general ISO 8601
    /// parser was most of reading a history index.
    static func timestampDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let milliseconds = number(20..<23),
            year >= 1600, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }  // earlier years: the general parser (Julian calendar before 1582)
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + Double(milliseconds) / 1000
        return Date(timeIntervalSince1970: seconds)
    }
}

extension BodyRecord {
    /// Puts the stored bytes back as the record's text: UTF-8 as it is, anything else base64.
    mutating func restore(_ bytes: Data) {
        switch encoding {
        case .utf8: text = String(decoding: bytes, as: UTF8.self)
        case .base64: text = bytes.base64EncodedString()
        }
    }
}
