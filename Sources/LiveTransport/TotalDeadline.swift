import DispatcherCore

/// Runs an operation under a total deadline: AsyncHTTPClient's own deadline stops at the response
/// head, so the body (a slow drip) and the redirects need this. When the deadline passes first the
/// operation is cancelled (which closes its connection) and the call throws `timedOut(.total)`,
/// keeping whatever partial response the operation reported.
enum TotalDeadline {
    static func run<Value: Sendable>(
        _ total: Duration, context: FailureContext,
        operation: @escaping @Sendable () async throws(TransportError) -> Value
    ) async throws(TransportError) -> Value {
        let outcome = await withTaskGroup(of: Outcome<Value>.self) { group -> Outcome<Value> in
            group.addTask {
                do throws(TransportError) {
                    return .finished(.success(try await operation()))
                } catch {
                    return .finished(.failure(error))
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: total)
                    return .deadlinePassed
                } catch {
                    return .timerCancelled
                }
            }
            var deadlinePassed = false
            while let next = await group.next() {
                switch next {
                case .finished(let result):
                    group.cancelAll()
                    // A response that completed as the deadline passed is still kept.
                    if deadlinePassed, case .failure = result { return .timedOut(partial: result.partialResponse) }
                    return .finished(result)
                case .deadlinePassed:
                    deadlinePassed = true
                    group.cancelAll()
                case .timerCancelled, .timedOut:
                    continue
                }
            }
            return .finished(.failure(TransportError(.cancelled)))
        }
        switch outcome {
        case .finished(let result):
            return try result.get()
        case .timedOut(let partial):
            var error = TransportError.timedOut(.total, context)
            error.partialResponse = partial
            throw error
        case .deadlinePassed, .timerCancelled:
            throw TransportError(.cancelled)
        }
    }

    private enum Outcome<Value: Sendable>: Sendable {
        case finished(Result<Value, TransportError>)
        case deadlinePassed
        case timerCancelled
        case timedOut(partial: Response?)
    }
}

extension Result where Failure == TransportError {
    /// The partial response of a failure, if any.
    fileprivate var partialResponse: Response? {
        if case .failure(let error) = self { return error.partialResponse }
        return nil
    }
}
