#if canImport(Glibc)
import Glibc
#endif

/// Maps the executable's own writable data (`.data` and `.bss`) in, written, in one system call
/// each, before the process starts its threads: in a release build, the part a launch writes to.
///
/// Why: a launch touches ~100 pages of `.data` and `.bss` scattered over 1.5 MB (metadata caches,
/// once-tokens, runtime pools), most of them first read and then written. The read maps the page
/// shared (the zero page, or the file's); the write then faults again to copy it, and the kernel
/// must flush the old mapping from every CPU running one of the process's threads: an
/// inter-processor interrupt each time, costly in a virtual machine. Mapped in at once while
/// there is one thread, the pages are private from the start (the gain: docs/performance.md).
///
/// Populating a page costs about as much as faulting it in, so only the part a launch writes to
/// is populated: the release build lays the sections a launch writes first, then a boundary
/// global (`LaunchDataBoundary.swift`, last in scripts/launch-order.txt). In a build without that
/// layout the boundary falls anywhere, and the pages past it fault in as before.
///
/// A layout it cannot read, a position-independent executable, a kernel without
/// `MADV_POPULATE_WRITE` (Linux < 5.14) or another system: nothing happens, and the pages fault
/// in as before.
package enum WritableDataPrefault {
    /// Populates the executable's `.data` and `.bss`. Call it first thing, while the process has
    /// one thread.
    package static func run() {
        #if os(Linux)
        for range in writableDataRanges() {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), range.count, populateWrite)
        }
        #endif
    }

    /// `MADV_POPULATE_WRITE`, which older C headers lack.
    static let populateWrite: Int32 = 23

    /// The page-aligned address ranges of the running executable's `.data` and `.bss`, read from
    /// its section headers (`/proc/self/exe`); empty when they cannot be read. Page-aligned
    /// inwards at the start (the page before `.data` may belong to read-only data) and outwards
    /// at the end (the last page is the section's own mapping).
    static func writableDataRanges() -> [Range<UInt>] {
        #if os(Linux)
        guard let sections = ExecutableSections.read(path: "/proc/self/exe", names: [".data", ".bss"]) else { return [] }
        let page = UInt(max(4_096, sysconf(Int32(_SC_PAGESIZE))))
        // Addresses in a position-independent executable depend on where it was loaded; SwiftPM
        // links fixed-address ones (-no-pie), release and debug alike.
        guard !sections.isPositionIndependent else { return [] }
        let boundaries = [
            ".data": withUnsafeMutablePointer(to: &launchDataBoundary) { UInt(bitPattern: $0) },
            ".bss": withUnsafeMutablePointer(to: &launchZeroDataBoundary) { UInt(bitPattern: $0) },
        ]
        return [".data", ".bss"].compactMap { name -> Range<UInt>? in
            guard let section = sections.named[name], section.size > 0 else { return nil }
            let start = (section.address + page - 1) / page * page
            var end = section.address + section.size
            // In a release build the sections a launch writes to come first, then the boundary
            // (scripts/launch-order.txt): the rest is left to fault in if ever used.
            if let boundary = boundaries[name], (section.address..<end).contains(boundary) { end = boundary + 1 }
            end = (end + page - 1) / page * page
            return start < end ? start..<end : nil
        }
        #else
        return []
        #endif
    }
}

/// The section addresses of a 64-bit little-endian ELF file, read from its headers.
struct ExecutableSections {
    struct Section: Equatable {
        var address: UInt
        var size: UInt
    }

    /// The sections asked for, by name (`.data`, `.bss` …).
    var named: [String: Section]
    /// True for a position-independent executable (`ET_DYN`): addresses are relative to where it was loaded.
    var isPositionIndependent: Bool

    /// Reads the headers of the file at `path`, keeping the sections called `names`; nil when it
    /// is not a 64-bit little-endian ELF file or cannot be read.
    static func read(path: String, names wanted: [String]) -> ExecutableSections? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        func bytes(at offset: UInt, count: Int) -> [UInt8]? {
            guard count > 0, count <= 1 << 20 else { return nil }
            var buffer = [UInt8](repeating: 0, count: count)
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return read == count ? buffer : nil
        }
        guard let header = bytes(at: 0, count: 64) else { return nil }
        return parse(header: header, names: wanted, bytes: bytes)
    }

    /// Parses an ELF header and reads the section headers and section names it points to with `bytes`.
    static func parse(header: [UInt8], names wanted: [String], bytes: (UInt, Int) -> [UInt8]?) -> ExecutableSections? {
        // "\u{7F}ELF", 64-bit, little-endian.
        guard header.count >= 64, header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46,
            header[4] == 2, header[5] == 1
        else { return nil }
        func integer(_ buffer: [UInt8], _ offset: Int, _ width: Int) -> UInt {
            var value: UInt = 0
            for index in stride(from: width - 1, through: 0, by: -1) { value = value << 8 | UInt(buffer[offset + index]) }
            return value
        }
        let type = integer(header, 16, 2)
        let sectionHeadersOffset = integer(header, 40, 8)
        let sectionHeaderSize = Int(integer(header, 58, 2)), sectionHeaderCount = Int(integer(header, 60, 2))
        let namesIndex = Int(integer(header, 62, 2))
        guard sectionHeaderSize >= 64, sectionHeaderCount > 0, namesIndex < sectionHeaderCount,
            let sectionTable = bytes(sectionHeadersOffset, sectionHeaderSize * sectionHeaderCount)
        else { return nil }
        func sectionField(_ index: Int, _ offset: Int, _ width: Int) -> UInt {
            integer(sectionTable, index * sectionHeaderSize + offset, width)
        }
        let namesSize = Int(sectionField(namesIndex, 32, 8))
        guard let names = bytes(sectionField(namesIndex, 24, 8), namesSize) else { return nil }
        // Names compared as bytes: no string is made for the ~50 sections nobody asked about.
        let wantedBytes = wanted.map { Array($0.utf8) }
        var named: [String: Section] = [:]
        for index in 0..<sectionHeaderCount {
            let nameOffset = Int(sectionField(index, 0, 4))
            guard nameOffset < names.count else { continue }
            let end = names[nameOffset...].firstIndex(of: 0) ?? names.count
            guard let match = wantedBytes.firstIndex(where: { $0.elementsEqual(names[nameOffset..<end]) }) else { continue }
            named[wanted[match]] = Section(address: sectionField(index, 16, 8), size: sectionField(index, 32, 8))
        }
        return ExecutableSections(named: named, isPositionIndependent: type == 3)
    }
}
