import TestSupport
import Testing

/// Runs each test it applies to on dispatch threads (`DedicatedExecutor.work`) instead of the
/// cooperative pool. For tests that compute for seconds or block: on the pool they would hold one
/// of its few threads (one per core) and hold back every other test of the process meanwhile.
package struct OffPoolTrait: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> OffPoolTrait? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(DedicatedExecutor.work) { try await function() }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the test (every test of the suite) off the cooperative pool.
    package static var offPool: Self { OffPoolTrait() }
}
