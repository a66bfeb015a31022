import Catalog
import DispatcherCore
import ExplorerApp
import Foundation
import Synchronization
import TerminalKit

/// Performs the reducer's effects off the UI path and posts their results as actions.
final class EffectRunner: Sendable {
    let inbox: ActionInbox
    let device: any TerminalDevice
    private let pool: SessionPool
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])
    /// Background work on bodies by `key/work`, with a token so a finished task removes only itself.
    let bodyTasks = Mutex<[String: (token: Int, task: Task<Void, Never>)]>([:])
    let nextBodyToken = Atomic<Int>(0)
    /// Where `$PAGER` and `$EDITOR` are read.
    let environment: [String: String]

    init(inbox: ActionInbox, device: any TerminalDevice, pool: SessionPool, environment: [String: String]) {
        self.inbox = inbox
        self.device = device
        self.pool = pool
        self.environment = environment
    }

    /// Requests still running.
    var runningCount: Int { tasks.withLock { $0.count } }

    func perform(_ effect: AppEffect) {
        switch effect {
        case .send(let ticket):
            send(ticket)
        case .cancel(let ticket):
            tasks.withLock { $0[ticket] }?.cancel()
        case .scheduleSpinnerTick(let generation, let delay):
            let inbox = self.inbox
            Task {
                try? await Task.sleep(for: delay)
                inbox.post(.spinnerTick(generation: generation))
            }
        case .copyToClipboard(let text, let description):
            copy(text, description: description)
        case .quit:
            break
        case .buildBody, .cancelBodyWork, .countBodyMatches, .selectInBody, .copyBodyValue, .saveBody, .openBody:
            performBodyEffect(effect)
        }
    }

    func copy(_ text: String, description: String) {
        device.writeControlSequence(OSC52.copy(text))
        inbox.post(.copied(description: description))
    }

    private func send(_ ticket: RequestTicket) {
        let inbox = self.inbox
        guard let session = pool.session(service: ticket.serviceID, environment: ticket.environmentName),
            let endpoint = session.service.endpoint(ticket.endpointID)
        else {
            let error = DispatchError.invalidRequest("\(ticket.endpointKey) is not in the catalog for \(ticket.environmentName).")
            inbox.post(.exchangeFinished(ticket: ticket.id, exchange: EffectRunner.failed(ticket, error), redactor: .standard))
            return
        }
        let behavior: StubBehavior
        switch ticket.mode {
        case .live: behavior = .never
        case .stub: behavior = session.environment.fixtures.isStubbed ? session.environment.fixtures : .immediate
        }
        let options = RequestOptions(stubBehavior: behavior, example: ticket.example)
        // Registered under the lock that the task's own removal takes, so a request that finishes
        // at once can never be registered after it removed itself (which would look busy forever).
        tasks.withLock { tasks in
            tasks[ticket.id] = Task {
                let exchange = await session.send(endpoint, options: options)
                self.tasks.withLock { _ = $0.removeValue(forKey: ticket.id) }
                inbox.post(.exchangeFinished(ticket: ticket.id, exchange: exchange, redactor: session.redactor))
            }
        }
    }

    static func failed(_ ticket: RequestTicket, _ error: DispatchError) -> Exchange {
        let request = Request(
            identifier: ticket.endpointKey, method: .get, url: URL(string: "about:blank")!,
            settings: TransportSettings(environment: Environment(name: ticket.environmentName, baseURL: URL(string: "about:blank")!)),
            attempt: 0)
        return Exchange(
            request: request, result: .failure(error), trace: [], environmentName: ticket.environmentName,
            environmentType: .development, stubBehavior: .never, attempts: 0, notes: [])
    }

    /// Cancels every request and body task and waits for them to finish.
    func cancelAll() async {
        let running = tasks.withLock { Array($0.values) } + bodyTasks.withLock { $0.values.map(\.task) }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }
}

/// The OSC 52 escape sequence that puts text on the terminal's clipboard (works over SSH and in tmux).
enum OSC52 {
    static func copy(_ text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }
}
