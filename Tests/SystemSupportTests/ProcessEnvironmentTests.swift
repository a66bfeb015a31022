import Foundation
import SystemSupport
import Testing
import TestTraits

/// The environment read once is the process's environment.
@Suite(.offPool) struct ProcessEnvironmentTests {
    @Test func holdsTheVariablesTheProcessStartedWith() throws {
        _ = try #require(getenv("PATH"), "PATH is set for the tests")
        for name in ["PATH", "HOME", "USER", "TERM"] {
            #expect(ProcessEnvironment.variables[name] == getenv(name).map { String(cString: $0) }, "\(name)")
        }
    }
}
