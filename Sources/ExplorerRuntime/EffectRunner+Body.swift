import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions
import Synchronization
import SystemSupport
import TerminalKit
import TextSupport

/// The Body tab's background work: formatting, counting, queries and jq, copying, saving, and the
/// pager or editor. Each runs in its own task; results come back as actions.
extension EffectRunner {
    /// Most bytes copied with OSC 52: terminals and tmux drop larger sequences.
    static let copyLimit = 4 << 20
    /// Least time between two progress reports of a build (each report draws a frame).
    static let progressInterval: Duration = .milliseconds(33)

    func performBodyEffect(_ effect: AppEffect) {
        let inbox = self.inbox
        switch effect {
        case .buildBody(let key, let generation, let received, let contentType, let masking):
            runBodyTask(key, .build) {
                let throttle = ProgressThrottle(interval: Self.progressInterval)
                // Off the UI thread: a search through the body for each secret value it may echo.
                let data = masking?.data(received) ?? received
                do {
                    let document = try await BodyDocument.build(data: data, contentType: contentType) { progress in
                        guard progress.preview != nil || throttle.shouldReport() else { return }
                        let status = BodyBuildStatus(bytesProcessed: progress.bytesProcessed, totalBytes: progress.totalBytes)
                        inbox.post(.bodyBuildProgress(key: key, generation: generation, status: status,
                            preview: progress.preview.map(BodyHandle.init)))
                    }
                    return .bodyBuilt(key: key, generation: generation, document: BodyHandle(document))
                } catch {
                    return .bodyBuildStopped(key: key, generation: generation)
                }
            }
        case .buildBodyFromFile(let key, let generation, let path, let contentType, let masking):
            runBodyTask(key, .build) {
                // Mapped, not read: a 1 GB download costs its index in the heap, not its text.
                guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
                    inbox.post(.bodyMessage("The download \(path) could not be opened."))
                    return .bodyBuildStopped(key: key, generation: generation)
                }
                self.performBodyEffect(.buildBody(key: key, generation: generation, data: data, contentType: contentType, masking: masking))
                return nil
            }
        case .cancelBodyWork(let key, let work):
            let task = bodyTasks.withLock { $0.removeValue(forKey: BodyTaskKey(endpoint: key, work: work)) }
            task?.task.cancel()
        case .countBodyMatches(let key, let handle, let query):
            runBodyTask(key, .count) {
                for await count in handle.document.matchCounts(for: query) {
                    inbox.post(.bodyMatchCount(key: key, document: handle, query: query, count: count))
                }
                return nil
            }
        case .findInBody(let key, let handle, let query, let offset):
            runBodyTask(key, .find) {
                let scan = handle.document.firstMatch(of: query, from: offset)
                return scan == .unfinished ? nil : .bodyMatchFound(key: key, document: handle, query: query, scan: scan)
            }
        case .selectInBody(let key, let id, let handle, let kind):
            runBodyTask(key, .selection) {
                do {
                    let result: BodySelectionResult
                    switch kind {
                    case .query(let expression):
                        let selected = try await handle.document.query(expression)
                        result = BodySelectionResult(document: BodyHandle(selected.document), count: selected.count)
                    case .jq(let filter):
                        result = BodySelectionResult(document: BodyHandle(try await handle.document.jq(filter)), count: nil)
                    }
                    return .bodySelectionFinished(key: key, id: id, outcome: .success(result))
                } catch is CancellationError {
                    return nil
                } catch {
                    return .bodySelectionFinished(key: key, id: id, outcome: .failure(BodySelectionError("\(error)")))
                }
            }
        case .copyBodyValue(let handle, let line):
            Task(executorPreference: BodyWorkExecutor.shared) {
                guard let text = handle.document.valueText(atLine: line) else { return }
                guard text.utf8.count <= Self.copyLimit else {
                    inbox.post(.bodyMessage(
                        "Not copied: the value is \(ByteCount.format(text.utf8.count)), too large for the clipboard; S saves it."))
                    return
                }
                self.copy(text, description: "the value at line \(line + 1)")
            }
        case .saveBody(let key, let handle, let path, let overwrite):
            Task(executorPreference: BodyWorkExecutor.shared) {
                let url = URL(fileURLWithPath: HomeDirectory.expandingTilde(path, environment: self.environment))
                do throws(BodySaveError) {
                    try handle.document.save(to: url, overwrite: overwrite)
                    inbox.post(.bodySaveFinished(key: key, path: path, byteCount: handle.document.byteCount, error: nil))
                } catch {
                    inbox.post(.bodySaveFinished(key: key, path: path, byteCount: 0, error: error))
                }
            }
        case .openBody(let handle, let program):
            open(handle.document, in: program)
        default:
            break
        }
    }

    /// Starts `work` for a body, replacing (and cancelling) the same kind of work on it; posts its action.
    private func runBodyTask(_ key: EndpointKey, _ kind: BodyWork, _ work: @escaping @Sendable () async -> AppAction?) {
        let id = BodyTaskKey(endpoint: key, work: kind)
        let token = nextBodyToken.add(1, ordering: .relaxed).newValue
        let inbox = self.inbox
        bodyTasks.withLock { tasks in
            tasks[id]?.task.cancel()
            tasks[id] = (token, Task(executorPreference: BodyWorkExecutor.shared) {
                let action = await work()
                self.bodyTasks.withLock { tasks in
                    if tasks[id]?.token == token { tasks[id] = nil }
                }
                if let action, !Task.isCancelled || kind == .build { inbox.post(action) }
            })
        }
    }

    /// Writes the body (pretty-printed when JSON) to a temporary file, leaves the terminal to the
    /// program, then removes the file. The screen is redrawn when the program exits.
    private func open(_ document: BodyDocument, in program: BodyProgram) {
        let inbox = self.inbox
        let device = self.device
        let (variable, fallback) = program == .pager ? ("PAGER", "less") : ("EDITOR", "vi")
        let command = environment[variable].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 } ?? fallback
        Task(executorPreference: BodyWorkExecutor.shared) {
            let file: URL
            do {
                file = try document.writeTemporaryFile(pretty: true)
            } catch {
                inbox.post(.bodyMessage("Could not open the body: \(error)."))
                return
            }
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                let status = try await device.suspend { () throws -> Int32 in
                    // Through the shell so `$PAGER` may carry options (`less -R`); the path is passed as $1.
                    try ChildProcess.runInTerminal("/bin/sh", ["-c", "\(command) \"$1\"", "sh", file.path], environment: self.environment)
                }
                if status != 0 { inbox.post(.bodyMessage("\(command) exited with status \(status).")) }
            } catch {
                inbox.post(.bodyMessage("Could not run \(command): \(error)."))
            }
        }
    }
}

/// Lets a build report progress at most once per interval, from whichever thread indexes it.
final class ProgressThrottle: Sendable {
    private let interval: Duration
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(interval: Duration) { self.interval = interval }

    func shouldReport() -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            if let previous = last, previous.duration(to: now) < interval { return false }
            last = now
            return true
        }
    }
}

extension EffectRunner {
    /// Where a download's file is: a name in the downloads folder (the catalog's `download:`),
    /// confined to it, or a path relative to where the explorer runs; and whether a file is there.
    static func checkDownload(_ call: EndpointCall, environment: [String: String]) -> AppAction {
        guard let name = call.downloadPath else { return .downloadChecked(call, path: "", exists: false, problem: "no file was given") }
        let path: String
        switch call.downloadPlace {
        case .downloadsFolder:
            switch DownloadsFolder.file(name, in: DownloadsFolder.path(environment: environment)) {
            case .success(let file): path = file
            case .failure(let problem): return .downloadChecked(call, path: "", exists: false, problem: problem.description)
            }
        case .workingDirectory, .checked:
            path = name.hasPrefix("/") ? name : FileManager.default.currentDirectoryPath + "/" + name
        }
        return .downloadChecked(call, path: path, exists: FileStatus.exists(path), problem: nil)
    }
}
