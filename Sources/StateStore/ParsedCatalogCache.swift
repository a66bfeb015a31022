import Catalog
import FoundationEssentials
import Synchronization
import SystemSupport
import YAMLSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state folder's `catalog-cache/`: one file per catalog file, holding its parsed YAML, so a
/// launch on unchanged catalogs parses none. A kept file is used only when everything it was
/// made from is unchanged: the catalog file's path, size, modification time (to the
/// nanosecond), inode and device, this cache's format and the running program's own file (a
/// different build parses again). Anything else about it, a damaged, truncated or hand-made file
/// included, makes it ignored, and it is written again. Files are replaced by rename, so another
/// process reading or writing at the same time sees a whole file, old or new; owner-only.
package struct ParsedCatalogCache: CatalogParseCache {
    /// The folder's name in the state folder.
    package static let folderName = "catalog-cache"
    /// The largest kept file read (a 16 MiB catalog file, the most a catalog file may hold, parses
    /// to less): a larger one is ignored before memory is spent on it.
    package static let maximumFileSize = 160 << 20

    /// The folder the kept files are in.
    package let folderPath: String
    /// What else a kept file must have been made by: this format and this program.
    private let build: String
    /// Whether an entry was written since the last `finishLoad` (shared by the copies of the cache).
    private let wroteEntries = SharedFlag()

    /// The cache in the state folder at `directoryPath`; `build` names the program that writes
    /// and reads it (by default its own file, as `stat` sees it).
    package init(directoryPath: String = StateDirectory.path(), build: String? = nil) {
        folderPath = URL.joinedFilePath(directoryPath, Self.folderName)
        self.build = build ?? CacheFileKey.currentBuild
    }

    package func composition(forFile path: String, identity: FileIdentity) -> YAMLComposer.Composition? {
        guard let data = FileContents.read(atPath: filePath(for: path), atMost: Self.maximumFileSize) else { return nil }
        let key = Array(key(for: path, identity: identity).utf8)
        return data.withUnsafeBytes { bytes -> YAMLComposer.Composition? in
            // The header: magic, the key's length, the key; then the snapshot.
            guard bytes.count >= 8 + key.count, bytes.loadUnaligned(as: UInt32.self) == Self.magic.littleEndian,
                Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))) == key.count,
                bytes[8..<(8 + key.count)].elementsEqual(key)
            else { return nil }
            return YAMLComposer.Composition(snapshot: UnsafeRawBufferPointer(rebasing: bytes[(8 + key.count)...]))
        }
    }

    package func keep(_ composition: YAMLComposer.Composition, forFile path: String, identity: FileIdentity) {
        let key = Array(key(for: path, identity: identity).utf8)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: Self.magic.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(key.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes += key
        bytes += composition.snapshot()
        guard bytes.count <= Self.maximumFileSize else { return }
        do {
            try AtomicFile.createDirectory(URL(fileURLWithPath: folderPath), permissions: 0o700)
            // Not flushed to disk: a cache file a crash damaged is ignored and written again.
            try AtomicFile.write(Data(bytes), to: URL(fileURLWithPath: filePath(for: path)), permissions: 0o600, durable: false)
            wroteEntries.set()
        } catch {
            // Not kept: the next load parses the file again.
        }
    }

    /// Stale entries go once per load that wrote one, never per file: listing the folder for each
    /// of 10,000 files made a first launch quadratic (docs/performance.md).
    package func finishLoad() {
        guard wroteEntries.take() else { return }
        removeStaleEntries()
    }

    /// How long an entry not written again is kept: entries of catalog files that were moved or
    /// deleted go after this; one still in use is only parsed once more.
    package static let entryLifetime: Duration = .seconds(30 * 24 * 3600)

    /// Removes entries written longer ago than `entryLifetime`. Done when an entry is written (a
    /// file parsed), never on a launch that finds everything kept.
    package func removeStaleEntries(now: Int = Int(time(nil))) {
        guard let names = try? DirectoryEntries.names(in: folderPath) else { return }
        let cutoff = now - Int(Self.entryLifetime.components.seconds)
        for name in names where name.hasSuffix(".yamlcache") || name.hasSuffix(".launchindex") {
            let entry = URL.joinedFilePath(folderPath, name)
            guard let modified = FileStatus.modified(entry, type: S_IFREG), Int(modified) < cutoff else { continue }
            unlink(entry)
        }
    }

    /// The kept file for the catalog file at `path`: named by a hash of the path (the path itself
    /// is in the file's key, so two paths with the same hash only replace each other's file).
    package func filePath(for path: String) -> String {
        CacheFileKey.filePath(in: folderPath, for: path, suffix: ".yamlcache")
    }

    /// Everything a kept file must match, as text.
    private func key(for path: String, identity: FileIdentity) -> String {
        "\(path)\u{0}\(CacheFileKey.text(of: identity))\u{0}"
            + "\(YAMLComposer.Composition.snapshotFormat) \(build)"
    }

    private static let magic: UInt32 = 0x4358_5041  // "APXC"
}

/// A flag the copies of a value share.
private final class SharedFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .relaxed) }
    func take() -> Bool { value.exchange(false, ordering: .relaxed) }
}
