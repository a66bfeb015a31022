import DispatcherCore

/// Sends through another transport and reports the same timing for every response, so `snapshot`
/// output of live requests is reproducible (network timings differ on every run).
struct SteadyTimingTransport: Transport {
    let base: any Transport
    static let timing = Timing(firstByte: .microseconds(2_100), total: .microseconds(2_800))

    init(_ base: any Transport) { self.base = base }

    func send(_ request: Request) async throws(TransportError) -> Response {
        do {
            var response = try await base.send(request)
            response.timing = Self.timing
            return response
        } catch {
            var error = error
            error.partialResponse?.timing = Self.timing
            throw error
        }
    }
}
