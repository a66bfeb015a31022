import FoundationEssentials
import SystemSupport

/// What the state folder's caches (`ParsedCatalogCache`, `LaunchIndexFile`) share: a file named by
/// a hash of what it caches, keys made of files' identities and the running program's, and a
/// checksum of the bytes kept.
enum CacheFileKey {
    /// `<FNV-1a of path, 16 hex digits><suffix>` in `folder`.
    static func filePath(in folder: String, for path: String, suffix: String) -> String {
        let hex = String(fnv1a(path.utf8), radix: 16)
        return URL.joinedFilePath(folder, String(repeating: "0", count: 16 - hex.count) + hex + suffix)
    }

    /// A file as a key sees it: size, modification time to the nanosecond, inode and device.
    static func text(of identity: FileIdentity) -> String {
        "\(identity.size) \(identity.modifiedSeconds).\(identity.modifiedNanoseconds) \(identity.inode) \(identity.device)"
    }

    /// The running program's file as `stat` sees it; the empty text where it cannot be found.
    static let currentBuild: String = FileIdentity.currentExecutable.map(text(of:)) ?? ""

    /// FNV-1a, 64 bits: names files, and as a checksum makes a damaged byte a miss (damage, not forgery).
    static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
