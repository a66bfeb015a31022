import DispatcherCore
import FoundationEssentials
import GRPCCalls
import GRPCWire
import JSONSupport
import ProtoJSON
import Synchronization

/// A server stream's messages handed to `RequestOptions.onResponsePart` as they arrive: the head
/// when the server's headers come, then each message as the piece of the response body's text
/// (`[` or `,`, then the message's pretty JSON at the list's indentation), and the list's end once
/// the call ends, so the parts together are the body the response carries.
final class RPCMessageStream: Sendable {
    private struct State {
        var headSent = false
        var wantsBody = false
        var count = 0
    }

    private let observer: ResponsePartObserver
    private let method: MethodDescriptor
    private let pool: DescriptorPool
    private let state = Mutex(State())

    init(observer: @escaping ResponsePartObserver, method: MethodDescriptor, pool: DescriptorPool) {
        self.observer = observer
        self.method = method
        self.pool = pool
    }

    /// One event of the call, in order.
    func receive(_ event: GRPCCallEvent) {
        state.withLock { state in
            switch event {
            case .headers(let metadata):
                sendHead(metadata, &state)
            case .message(let bytes):
                if !state.headSent { sendHead(GRPCMetadata(), &state) }
                guard state.wantsBody else { return }
                // A message that does not decode is the final response's error; nothing is printed for it.
                guard let value = try? pool.decodeToJSON(bytes, as: method.output) else { return }
                let piece = (state.count == 0 ? "[" : ",") + "\n  " + value.prettyText().replacing("\n", with: "\n  ")
                state.count += 1
                _ = observer(.body(Data(piece.utf8)))
            }
        }
    }

    /// The call ended: the list's end, when a head went out.
    func finish() {
        state.withLock { state in
            guard state.headSent, state.wantsBody else { return }
            _ = observer(.body(Data((state.count == 0 ? "[]" : "\n]").utf8)))
        }
    }

    private func sendHead(_ metadata: GRPCMetadata, _ state: inout State) {
        var headers = Headers()
        for entry in metadata { headers.add(entry.name, entry.value.wireText, origin: .server) }
        if headers["Content-Type"] == nil { headers.add("content-type", RPCStatus.contentType, origin: .server) }
        state.headSent = true
        state.wantsBody = observer(.head(status: 200, headers: headers))
    }
}
