/// Runs `body`, then `shutdown` whether `body` threw or not. A failed shutdown is the error only
/// when `body` succeeded: the first failure is the one worth reading.
package func withShutdown<Result>(
    _ body: () async throws -> Result, shutdown: () async throws -> Void
) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        try? await shutdown()
        throw error
    }
    try await shutdown()
    return result
}
