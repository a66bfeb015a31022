import Catalog
import FoundationEssentials
import SystemSupport

/// The launch index of one catalog folder (`CatalogLaunchIndex`), kept in the parsed-catalog
/// cache's folder as `<hash of the folder>.launchindex`. Read only when everything it was made from
/// is unchanged: the folder's path, every regular file directly in it (name, size, modification
/// time to the nanosecond, inode, device), what the launch says matters (`settings`: trust,
/// options), the format and the running program's file. Anything else about it, a damaged,
/// truncated or hand-made file included, makes it ignored: the launch loads in full as without
/// it and writes it again. Written by rename, so two processes at once each leave a whole file.
package struct LaunchIndexFile: Sendable {
    /// The largest index read (a 10,000-endpoint catalog makes ~1 MiB): a larger file is ignored
    /// before memory is spent on it.
    package static let maximumFileSize = 16 << 20

    /// Where the index is.
    package let filePath: String
    /// The catalogs it indexes.
    package let source: CatalogSource
    private let folder: String
    private let settings: String
    private let build: String

    /// The index of the catalog folder of `source` (nil for the bundled catalogs), in the cache
    /// folder `cacheFolder`; `settings` is whatever else the launch depends on, as text; `build`
    /// names the program (its own file by default).
    package init?(source: CatalogSource, cacheFolder: String, settings: String, build: String? = nil) {
        guard let directory = source.directory else { return nil }
        let folder = directory.path
        self.source = source
        self.folder = folder
        self.settings = settings
        self.build = build ?? CacheFileKey.currentBuild
        filePath = CacheFileKey.filePath(in: cacheFolder, for: folder, suffix: ".launchindex")
    }

    /// What the folder is now, as the index's key; nil when the folder cannot be listed.
    package func currentKey() -> [UInt8]? {
        guard let names = try? DirectoryEntries.names(in: folder) else { return nil }
        var key = "\(folder)\u{0}\(CatalogLaunchIndex.format) \(build)\u{0}\(settings)\u{0}"
        for name in names.sorted() where !name.hasPrefix(".") || name == ".env" {
            guard let identity = FileIdentity(path: URL.joinedFilePath(folder, name)) else { continue }
            key += "\(name)\u{0}\(CacheFileKey.text(of: identity))\u{0}"
        }
        return Array(key.utf8)
    }

    /// The index kept for the folder as `key` says it is; nil when there is none or it does not match.
    package func read(matching key: [UInt8]) -> CatalogLaunchIndex? {
        guard let data = FileContents.read(atPath: filePath, atMost: Self.maximumFileSize) else { return nil }
        return data.withUnsafeBytes { bytes -> CatalogLaunchIndex? in
            // The header: magic, the key's length, the key, the index's checksum; then the index.
            guard bytes.count >= 16 + key.count, bytes.loadUnaligned(as: UInt32.self) == Self.magic.littleEndian,
                Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))) == key.count,
                bytes[8..<(8 + key.count)].elementsEqual(key)
            else { return nil }
            let index = UnsafeRawBufferPointer(rebasing: bytes[(16 + key.count)...])
            guard UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 + key.count, as: UInt64.self)) == CacheFileKey.fnv1a(index) else { return nil }
            return CatalogLaunchIndex(decoding: index)
        }
    }

    /// The catalogs to draw first, when the index matches `key`.
    package func preview(matching key: [UInt8]) -> CatalogSet? {
        read(matching: key)?.preview(source: source)
    }

    /// Keeps `index` for the folder as it was (`key`, taken before the load). Failing is not an
    /// error: the next launch loads in full.
    package func write(_ index: CatalogLaunchIndex, key: [UInt8]) {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: Self.magic.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(key.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes += key
        let encoded = index.encoded()
        encoded.withUnsafeBytes { encoded in withUnsafeBytes(of: CacheFileKey.fnv1a(encoded).littleEndian) { bytes.append(contentsOf: $0) } }
        bytes += encoded
        guard bytes.count <= Self.maximumFileSize else { return }
        let url = URL(fileURLWithPath: filePath)
        do {
            try AtomicFile.createDirectory(url.deletingLastPathComponent(), permissions: 0o700)
            try AtomicFile.write(Data(bytes), to: url, permissions: 0o600, durable: false)
        } catch {
            // Not kept: the next launch loads in full.
        }
    }

    private static let magic: UInt32 = 0x4C58_5041  // "APXL"
}
