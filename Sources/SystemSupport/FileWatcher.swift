import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells when files in a folder (and its subfolders) are written, created, removed or renamed,
/// from the kernel's own notifications (inotify on Linux, kqueue on macOS), never by polling.
/// Changes are reported in batches: an editor's save (write a temporary file, rename it over the
/// old one) arrives as one batch of paths relative to the folder.
package final class FileWatcher: Sendable {
    /// Batches of changed paths, relative to the folder (`petstore.yaml`, `fixtures/pets.json`).
    package let changes: AsyncStream<Set<String>>
    /// The write end of the pipe that stops the thread: closed to stop it (the thread sees the end
    /// of the pipe); -1 once closed, so nothing is written to, or closed twice on, a number
    /// another file may have by then.
    private let stopWriteEnd: Atomic<Int32>

    /// How long the watcher waits for more changes after one arrives before reporting the batch.
    package static let batchWindow: Duration = .milliseconds(30)

    /// Starts watching `directory`; fails when the kernel cannot watch it (missing folder, no watches left).
    package init(directory: String) throws(SystemError) {
        let continuation: AsyncStream<Set<String>>.Continuation
        (changes, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .unbounded)
        let source = try KernelWatch(root: directory)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let failure = SystemError("cannot make a pipe")
            source.close()
            throw failure
        }
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        stopWriteEnd = Atomic(pipeEnds[1])
        let stopRead = pipeEnds[0]
        let started = PosixThread.start {
            Self.run(source, stopRead: stopRead, continuation: continuation)
        }
        if !started {
            source.close()
            close(stopRead)
            stop()
            continuation.finish()
        }
    }

    /// Stops watching and ends `changes`.
    package func stop() {
        let writeEnd = stopWriteEnd.exchange(-1, ordering: .acquiringAndReleasing)
        if writeEnd >= 0 { close(writeEnd) }
    }

    deinit {
        stop()
    }

    /// The watching thread: waits for the kernel or the stop pipe, gathers a batch, reports it.
    private static func run(_ source: KernelWatch, stopRead: Int32, continuation: AsyncStream<Set<String>>.Continuation) {
        defer {
            source.close()
            close(stopRead)
            continuation.finish()
        }
        let windowMilliseconds = Int32(batchWindow.components.attoseconds / 1_000_000_000_000_000)
        var batch = Set<String>()
        while true {
            var descriptors = [
                pollfd(fd: source.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
            ]
            // Block until something happens; once a batch has begun, wait only for the window.
            let ready = poll(&descriptors, 2, batch.isEmpty ? -1 : windowMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }  // the write end closed: stopped
            if ready == 0 {
                continuation.yield(batch)
                batch.removeAll()
                continue
            }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                batch.formUnion(source.readChanges())
            } else if descriptors[0].revents != 0 {
                return
            }
        }
    }
}

#if os(Linux)
/// inotify on a folder and its subfolders (watches are added as subfolders appear).
private final class KernelWatch: @unchecked Sendable {
    let descriptor: Int32
    /// Relative folder by watch descriptor ("" for the root).
    private var folders: [Int32: String] = [:]
    private let root: String
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)

    init(root: String) throws(SystemError) {
        self.root = root
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw SystemError("cannot watch \(root)") }
        guard add(folder: "") else {
            let failure = SystemError("cannot watch \(root)")
            Glibc.close(descriptor)
            throw failure
        }
    }

    /// Watches `folder` (relative to the root) and, a few levels down, its subfolders.
    @discardableResult
    private func add(folder: String, depth: Int = 0) -> Bool {
        let path = folder.isEmpty ? root : root + "/" + folder
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        guard watch >= 0 else { return false }
        folders[watch] = folder
        guard depth < 4, let directory = opendir(path) else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = DirectoryEntries.name(of: entry)
            guard !name.hasPrefix("."), DirectoryEntries.isDirectory(entry) else { continue }
            add(folder: folder.isEmpty ? name : folder + "/" + name, depth: depth + 1)
        }
        return true
    }

    /// The paths named by the events waiting to be read.
    func readChanges() -> Set<String> {
        var changed = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }, as: UTF8.self)
                offset = nameStart + length
                guard let folder = folders[watch] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    folders[watch] = nil
                    continue
                }
                let path = name.isEmpty ? folder : folder.isEmpty ? name : folder + "/" + name
                if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.hasPrefix(".") {
                    add(folder: path)
                }
                changed.insert(path)
            }
        }
        return changed
    }

    func close() {
        Glibc.close(descriptor)
    }
}
#elseif canImport(Darwin)
/// kqueue on a folder, its catalog files and its subfolders: a folder's entry changes (a file
/// added, removed or renamed over) and a file's writes are both reported.
private final class KernelWatch: @unchecked Sendable {
    let descriptor: Int32
    private let root: String
    /// Relative path by open file descriptor ("" for the root).
    private var watched: [Int32: String] = [:]

    init(root: String) throws(SystemError) {
        self.root = root
        descriptor = kqueue()
        guard descriptor >= 0 else { throw SystemError("cannot watch \(root)") }
        guard add("", depth: 0) else {
            let failure = SystemError("cannot watch \(root)")
            Darwin.close(descriptor)
            throw failure
        }
    }

    /// Watches `relative` (when not watched yet) and, for a folder, what is in it, a few levels down.
    @discardableResult
    private func add(_ relative: String, depth: Int) -> Bool {
        let path = relative.isEmpty ? root : root + "/" + relative
        if !watched.values.contains(relative) {
            let file = open(path, O_EVTONLY)
            guard file >= 0 else { return false }
            var change = kevent(
                ident: UInt(file), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_EXTEND | NOTE_ATTRIB), data: 0, udata: nil)
            guard kevent(descriptor, &change, 1, nil, 0, nil) == 0 else {
                Darwin.close(file)
                return false
            }
            watched[file] = relative
        }
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, depth < 4, let directory = opendir(path) else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = DirectoryEntries.name(of: entry)
            guard !name.hasPrefix(".") else { continue }
            add(relative.isEmpty ? name : relative + "/" + name, depth: depth + 1)
        }
        return true
    }

    func readChanges() -> Set<String> {
        var changed = Set<String>()
        var events = [kevent](repeating: kevent(), count: 64)
        var noWait = timespec(tv_sec: 0, tv_nsec: 0)
        let count = kevent(descriptor, nil, 0, &events, Int32(events.count), &noWait)
        guard count > 0 else { return changed }
        for event in events.prefix(Int(count)) {
            let file = Int32(event.ident)
            guard let relative = watched[file] else { continue }
            changed.insert(relative)
            if event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 {
                Darwin.close(file)
                watched[file] = nil
            }
            // A folder's entries changed: watch what is new in it (files renamed into place).
            if event.fflags & UInt32(NOTE_WRITE) != 0, watched[file] != nil {
                add(relative, depth: relative.split(separator: "/").count)
            }
        }
        return changed
    }

    func close() {
        for file in watched.keys { Darwin.close(file) }
        Darwin.close(descriptor)
    }
}
#endif
