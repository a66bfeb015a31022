import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Synchronization
import SystemSupport
import TerminalKit
import TextSupport

/// The Body tab's background work: formatting, counting, queries and jq, copying, saving, and the
/// pager or editor. Each runs in its own task; results come back as actions.
final class BodyEffects: Sendable {
    /// Most bytes copied with OSC 52: terminals and tmux drop larger sequences.
    static let copyLimit = 4 << 20

    /// The terminal, left to the pager or editor while it runs.
    private let device: any TerminalDevice
    /// Where `$PAGER` and `$EDITOR` are read.
    private let environment: [String: String]
    /// Background work by endpoint and kind, with a token so a finished task removes only itself.
    private let tasks = Mutex<[TaskKey: (token: Int, task: Task<Void, Never>)]>([:])
    private let nextToken = Atomic<Int>(0)

    /// Which background work on which body.
    private struct TaskKey: Hashable {
        var endpoint: EndpointKey
        var work: BodyWork
    }

    init(device: any TerminalDevice, environment: [String: String]) {
        self.device = device
        self.environment = environment
    }

    /// The tasks running, for the runner to cancel and wait for when the explorer ends.
    var running: [Task<Void, Never>] { tasks.withLock { $0.values.map(\.task) } }

    func perform(_ effect: BodyEffect, _ context: EffectContext) {
        let post = context.post
        switch effect {
        case .build(let key, let generation, let received, let contentType, let masking):
            run(key, .build, post) {
                let throttle = ProgressThrottle(interval: ProgressThrottle.reportInterval)
                // Off the UI thread: a search through the body for each secret value it may echo.
                let data = masking?.data(received) ?? received
                do {
                    let document = try await BodyDocument.build(data: data, contentType: contentType) { progress in
                        guard progress.preview != nil || throttle.shouldReport() else { return }
                        let status = BodyBuildStatus(bytesProcessed: progress.bytesProcessed, totalBytes: progress.totalBytes)
                        post(.body(.buildProgressed(key: key, generation: generation, status: status,
                            preview: progress.preview.map(BodyHandle.init))))
                    }
                    return .body(.built(key: key, generation: generation, document: BodyHandle(document)))
                } catch {
                    return .body(.buildStopped(key: key, generation: generation))
                }
            }
        case .buildFromFile(let key, let generation, let path, let contentType, let masking):
            run(key, .build, post) {
                // Mapped, not read: a 1 GB download costs its index in the heap, not its text.
                guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
                    post(.body(.message("The download \(path) could not be opened.")))
                    return .body(.buildStopped(key: key, generation: generation))
                }
                self.perform(.build(key: key, generation: generation, data: data, contentType: contentType, masking: masking), context)
                return nil
            }
        case .cancel(let key, let work):
            let task = tasks.withLock { $0.removeValue(forKey: TaskKey(endpoint: key, work: work)) }
            task?.task.cancel()
        case .countMatches(let key, let handle, let query):
            run(key, .count, post) {
                for await count in handle.document.matchCounts(for: query) {
                    post(.body(.matchesCounted(key: key, document: handle, query: query, count: count)))
                }
                return nil
            }
        case .find(let key, let handle, let query, let offset):
            run(key, .find, post) {
                let scan = handle.document.firstMatch(of: query, from: offset)
                return scan == .unfinished ? nil : .body(.matchFound(key: key, document: handle, query: query, scan: scan))
            }
        case .select(let key, let id, let handle, let kind):
            run(key, .selection, post) {
                do {
                    let result: BodySelectionResult
                    switch kind {
                    case .query(let expression):
                        let selected = try await handle.document.query(expression)
                        result = BodySelectionResult(document: BodyHandle(selected.document), count: selected.count)
                    case .jq(let filter):
                        result = BodySelectionResult(document: BodyHandle(try await handle.document.jq(filter)), count: nil)
                    }
                    return .body(.selectionFinished(key: key, id: id, outcome: .success(result)))
                } catch is CancellationError {
                    return nil
                } catch {
                    return .body(.selectionFinished(key: key, id: id, outcome: .failure(BodySelectionError("\(error)"))))
                }
            }
        case .copyValue(let handle, let line):
            let device = self.device
            Task(executorPreference: BodyWorkExecutor.shared) {
                guard let text = handle.document.valueText(atLine: line) else { return }
                guard text.utf8.count <= Self.copyLimit else {
                    post(.body(.message(
                        "Not copied: the value is \(ByteCount.format(text.utf8.count)), too large for the clipboard; S saves it.")))
                    return
                }
                OSC52.put(text, description: "the value at line \(line + 1)", on: device, post: post)
            }
        case .save(let key, let handle, let path, let overwrite):
            let environment = self.environment
            Task(executorPreference: BodyWorkExecutor.shared) {
                let url = URL(fileURLWithPath: HomeDirectory.expandingTilde(path, environment: environment))
                do throws(BodySaveError) {
                    try handle.document.save(to: url, overwrite: overwrite)
                    post(.body(.saveFinished(key: key, path: path, byteCount: handle.document.byteCount, error: nil)))
                } catch {
                    post(.body(.saveFinished(key: key, path: path, byteCount: 0, error: error)))
                }
            }
        case .open(let handle, let program):
            open(handle.document, in: program, post)
        }
    }

    /// Starts `work` for a body, replacing (and cancelling) the same kind of work on it; posts its action.
    private func run(
        _ key: EndpointKey, _ kind: BodyWork, _ post: @escaping @Sendable (AppAction) -> Void, _ work: @escaping @Sendable () async -> AppAction?
    ) {
        let id = TaskKey(endpoint: key, work: kind)
        let token = nextToken.add(1, ordering: .relaxed).newValue
        tasks.withLock { tasks in
            tasks[id]?.task.cancel()
            tasks[id] = (token, Task(executorPreference: BodyWorkExecutor.shared) {
                let action = await work()
                self.tasks.withLock { tasks in
                    if tasks[id]?.token == token { tasks[id] = nil }
                }
                if let action, !Task.isCancelled || kind == .build { post(action) }
            })
        }
    }

    /// Writes the body (pretty-printed when JSON) to a temporary file, leaves the terminal to the
    /// program, then removes the file. The screen is redrawn when the program exits.
    private func open(_ document: BodyDocument, in program: BodyProgram, _ post: @escaping @Sendable (AppAction) -> Void) {
        let device = self.device
        let environment = self.environment
        let (variable, fallback) = program == .pager ? ("PAGER", "less") : ("EDITOR", "vi")
        let command = environment[variable].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 } ?? fallback
        Task(executorPreference: BodyWorkExecutor.shared) {
            let file: URL
            do {
                file = try document.writeTemporaryFile(pretty: true)
            } catch {
                post(.body(.message("Could not open the body: \(error).")))
                return
            }
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                let status = try await device.suspend { () throws -> Int32 in
                    // Through the shell so `$PAGER` may carry options (`less -R`); the path is passed as $1.
                    try ChildProcess.runInTerminal("/bin/sh", ["-c", "\(command) \"$1\"", "sh", file.path], environment: environment)
                }
                if status != 0 { post(.body(.message("\(command) exited with status \(status)."))) }
            } catch {
                post(.body(.message("Could not run \(command): \(error).")))
            }
        }
    }
}
