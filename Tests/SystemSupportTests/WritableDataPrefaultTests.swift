import Testing

@testable import SystemSupport

#if canImport(Glibc)
import Glibc
import TestTraits
#endif

/// A global's storage (in `.bss`, or `.data` when the optimizer sets it statically).
nonisolated(unsafe) private var global = 0x5EED_5EED
/// A class: its metadata is a static, writable record in `.data`.
private final class Marker {}

@Suite(.offPool) struct WritableDataPrefaultTests {
    /// A 64-bit little-endian ELF file of `type` with the named sections (address, size), and a
    /// section-name table last.
    static func elf(type: UInt16 = 2, sections: [(String, UInt64, UInt64)]) -> [UInt8] {
        var names: [UInt8] = [0]
        var nameOffsets: [UInt32] = []
        for (name, _, _) in sections + [(".shstrtab", 0, 0)] {
            nameOffsets.append(UInt32(names.count))
            names += Array(name.utf8) + [0]
        }
        func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let count = sections.count + 2  // the null section first, the names last
        let tableOffset = UInt64(64), namesOffset = UInt64(64 + 64 * count)
        var file = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
        file += little(type) + little(UInt16(62)) + little(UInt32(1)) + little(UInt64(0x401000))
        file += little(UInt64(0)) + little(tableOffset) + little(UInt32(0)) + little(UInt16(64))
        file += little(UInt16(56)) + little(UInt16(0)) + little(UInt16(64)) + little(UInt16(count)) + little(UInt16(count - 1))
        file += [UInt8](repeating: 0, count: 64)
        for (index, (_, address, size)) in sections.enumerated() {
            var entry = little(nameOffsets[index]) + little(UInt32(1)) + little(UInt64(3)) + little(address)
            entry += little(UInt64(0)) + little(size) + [UInt8](repeating: 0, count: 24)
            file += entry
        }
        file += little(nameOffsets[sections.count]) + little(UInt32(3)) + little(UInt64(0)) + little(UInt64(0))
        file += little(namesOffset) + little(UInt64(names.count)) + [UInt8](repeating: 0, count: 24)
        return file + names
    }

    static func parse(_ file: [UInt8], names: [String] = [".data", ".bss"]) -> ExecutableSections? {
        ExecutableSections.parse(header: Array(file.prefix(64)), names: names) { offset, count in
            let start = Int(offset)
            return start + count <= file.count ? Array(file[start..<(start + count)]) : nil
        }
    }

    @Test("The section headers give the asked-for sections' addresses and sizes, and nothing else")
    func parsesSectionHeaders() throws {
        let file = Self.elf(sections: [(".text", 0x401000, 0x900), (".data", 0x403010, 0x2F0), (".bss", 0x404000, 0x1_2345)])
        let sections = try #require(Self.parse(file))
        #expect(sections.named == [".data": .init(address: 0x403010, size: 0x2F0), ".bss": .init(address: 0x404000, size: 0x1_2345)])
        #expect(!sections.isPositionIndependent)
        #expect(Self.parse(Self.elf(type: 3, sections: [(".bss", 0x4000, 0x10)]))?.isPositionIndependent == true)
        #expect(Self.parse(file, names: [".tdata"])?.named.isEmpty == true)
    }

    @Test("Anything but a whole 64-bit little-endian ELF file is no sections")
    func rejectsWhatIsNotAnExecutable() {
        let file = Self.elf(sections: [(".data", 0x403010, 0x2F0)])
        #expect(Self.parse(Array("#!/bin/sh\necho not an executable, but long enough to hold a header ....\n".utf8)) == nil)
        var thirtyTwoBit = file
        thirtyTwoBit[4] = 1
        #expect(Self.parse(thirtyTwoBit) == nil)
        var bigEndian = file
        bigEndian[5] = 2
        #expect(Self.parse(bigEndian) == nil)
        #expect(Self.parse(Array(file.prefix(40))) == nil)
        #expect(Self.parse(Array(file.prefix(200))) == nil, "section headers cut off")
        #expect(ExecutableSections.read(path: "/nonexistent/apiexplorer", names: [".data"]) == nil)
    }

    @Test("This test binary's .data and .bss are found where its globals are, and run() makes their pages resident")
    func findsAndPopulatesThisProcess() throws {
        let sections = try #require(ExecutableSections.read(path: "/proc/self/exe", names: [".data", ".bss"]))
        let globalAddress = withUnsafeMutablePointer(to: &global) { UInt(bitPattern: $0) }
        let metadataAddress = UInt(bitPattern: unsafeBitCast(Marker.self, to: UnsafeRawPointer.self))
        let bss = try #require(sections.named[".bss"]), data = try #require(sections.named[".data"])
        let bssRange = bss.address..<bss.address + bss.size, dataRange = data.address..<data.address + data.size
        #expect(bssRange.contains(globalAddress) || dataRange.contains(globalAddress))
        #expect(dataRange.contains(metadataAddress))

        // Each range ends at the page holding its boundary global (the end of what a launch writes
        // to in a release build's layout; anywhere in this one).
        let ranges = WritableDataPrefault.writableDataRanges()
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        func roundedUp(_ address: UInt) -> UInt { (address + page - 1) / page * page }
        let boundaries = [
            withUnsafeMutablePointer(to: &launchDataBoundary) { UInt(bitPattern: $0) },
            withUnsafeMutablePointer(to: &launchZeroDataBoundary) { UInt(bitPattern: $0) },
        ]
        #expect(dataRange.contains(boundaries[0]) && bssRange.contains(boundaries[1]))
        #expect(ranges.map(\.upperBound) == boundaries.map { roundedUp($0 + 1) })
        #expect(ranges.map(\.lowerBound) == [roundedUp(data.address), roundedUp(bss.address)])
        for range in ranges { #expect(range.lowerBound % page == 0 && range.upperBound % page == 0) }

        // Where the kernel has MADV_POPULATE_WRITE (Linux 5.14), every page is resident after.
        guard Self.kernelPopulatesWrites() else { return }
        WritableDataPrefault.run()
        for range in ranges {
            var residency = [UInt8](repeating: 0, count: range.count / Int(page))
            #expect(mincore(UnsafeMutableRawPointer(bitPattern: range.lowerBound), range.count, &residency) == 0)
            #expect(residency.allSatisfy { $0 & 1 == 1 }, "pages of \(range) not resident")
        }
        #expect(global == 0x5EED_5EED, "populating keeps what the pages hold")
    }

    static func kernelPopulatesWrites() -> Bool {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), memory != MAP_FAILED else { return false }
        defer { munmap(memory, size) }
        return madvise(memory, size, WritableDataPrefault.populateWrite) == 0
    }
}
