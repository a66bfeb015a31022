import TestTraits
import FoundationEssentials
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where a catalog's downloads go, and the names that may not be written there.
@Suite(.offPool) struct DownloadsFolderTests {
    @Test func theFolderIsTheOneSetThenXDGsThenDownloads() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        #expect(DownloadsFolder.path(environment: ["APIEXPLORER_DOWNLOADS": "/d", "XDG_DOWNLOAD_DIR": "/x", "HOME": folder]) == "/d")
        #expect(DownloadsFolder.path(environment: ["XDG_DOWNLOAD_DIR": "/x", "HOME": folder]) == "/x")
        #expect(DownloadsFolder.path(environment: ["HOME": folder]) == folder + "/Downloads")
        #expect(mkdir(folder + "/.config", 0o700) == 0)
        let dirs = "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOWNLOAD_DIR=\"$HOME/Fetched\"\n"
        try AtomicFile.write(Data(dirs.utf8), to: URL(fileURLWithPath: folder + "/.config/user-dirs.dirs"))
        #expect(DownloadsFolder.path(environment: ["HOME": folder]) == folder + "/Fetched")
    }

    @Test func aNameStaysInTheFolder() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        let outside = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder, outside], environment: [:]).wait() }
        #expect(try DownloadsFolder.file("report.csv", in: folder).get() == folder + "/report.csv")
        #expect(mkdir(folder + "/q3", 0o700) == 0)
        #expect(try DownloadsFolder.file("q3/report.csv", in: folder).get() == folder + "/q3/report.csv")
        for name in ["../report.csv", "/etc/passwd", "q3/../../x", "", "q3/"] {
            #expect(throws: DownloadPathError.self, "\(name)") { try DownloadsFolder.file(name, in: folder).get() }
        }
        // A link in the folder leading out, as a folder or as the file itself.
        #expect(symlink(outside, folder + "/away") == 0)
        #expect(symlink(outside + "/target", folder + "/trap.csv") == 0)
        #expect(throws: DownloadPathError.self) { try DownloadsFolder.file("away/x.csv", in: folder).get() }
        #expect(throws: DownloadPathError.self) { try DownloadsFolder.file("trap.csv", in: folder).get() }
    }

    @Test func aKilledWritersTemporaryFileIsRemovedAndNoOtherFile() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        let gone = try ChildProcess("/bin/true", [], environment: [:])
        _ = gone.wait()
        let names = [".drafts.json.\(gone.pid).Ab12Cd", ".drafts.json.\(getpid()).Ef34Gh", ".drafts.json.Ij56Kl", ".config.abcdef", "drafts.json"]
        for name in names { try AtomicFile.write(Data("x".utf8), to: URL(fileURLWithPath: folder + "/" + name)) }
        #expect(AtomicFile.removeLeftovers(inFolder: folder) == 1)
        // The live writer's (this process's), the old-style name and the others stay.
        #expect(try DirectoryEntries.names(in: folder).sorted() == names.dropFirst().sorted())
    }

    @Test func aWriteThatMustNotReplaceLeavesTheFileThere() throws {
        let folder = try SystemSupportTests.temporaryFolder()
        defer { _ = try? ChildProcess("/bin/rm", ["-rf", folder], environment: [:]).wait() }
        let url = URL(fileURLWithPath: folder + "/kept.txt")
        try AtomicFile.write(Data("first".utf8), to: url, replacing: false)
        #expect(throws: SystemError.self) { try AtomicFile.write(Data("second".utf8), to: url, replacing: false) }
        #expect(FileContents.read(atPath: url.path, atMost: 1 << 30) == Data("first".utf8))
        #expect(try DirectoryEntries.names(in: folder) == ["kept.txt"])
    }
}
