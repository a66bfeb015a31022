import Foundation
@testable import SystemSupport
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

    @Test func environIsReadDirectlyAsProcessInfoReadsIt() throws {
        // Other suites set variables while this runs (setenv): compare reads the environment did
        // not change between, trying again when it did.
        for _ in 0..<20 {
            let before = try #require(ProcessEnvironment.fromEnviron(), "environ is found")
            let foundation = ProcessInfo.processInfo.environment
            guard try #require(ProcessEnvironment.fromEnviron()) == before else { continue }
            #expect(before == foundation)
            return
        }
        Issue.record("the environment kept changing")
    }
}
