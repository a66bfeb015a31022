import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// The launch, guarded: the instructions of one explorer launch (exec to the first complete frame
/// and the exit after it), counted by callgrind on the debug build the tests run. Instructions do
/// not move with the machine's load, so the budget can be tight. How the count is taken:
/// `scripts/count-launch-instructions`; the release figure and what each start-up rule saves:
/// docs/performance.md.
@Suite(.offPool)
struct LaunchBudgetTests {
    /// Instructions of a headless launch of the debug build on the bundled catalogs (Swift 6.3.1,
    /// valgrind 3.19). Measured 163.22–163.29 M over 5 runs while other builds loaded the machine,
    /// and 163.29–164.06 M over 5 runs with two busy processes on both cores besides: the spread
    /// is under 0.5 % (threads the runtime starts when the machine is slow); 162.02–162.08 M on
    /// main after the round's merges; 169.9–170.5 M on main after the gRPC merges, and 173.09–173.19 M
    /// (one launch of five 183.6 M) with the hints that name the keys in effect (issue 49.6: the
    /// status bar looks up seven keys where the keyboard is on its first frame, 1.7 M).
    /// About 14 % of the count is libc and the dynamic loader, whose
    /// string routines glibc picks by the CPU (as valgrind presents it), so another machine can
    /// count a few percent more: the budget is ~5 % over the median (182 M). It fails on ~2 ms of
    /// added work (a deliberate 6 ms regression counted 210 M).
    /// Re-measure after a change that is meant to move it (after `swift build --product
    /// apiexplorerPackageTests`): `scripts/count-launch-instructions --binary .build/debug/apiexplorer
    /// --runs 5`, then set this to the median plus 5 %, and say why in the commit.
    /// 2026-12-08, after the gRPC explorer merge: 197.6 M (170.6 M before it; the bundled routeguide
    /// service and the RPC transport in the explorer; most of the rise is the runtime's protocol
    /// conformance lookups, which scan the larger binary's conformance records: docs/performance.md).
    /// Budget: that plus 5 %, until the cause is taken out (issue 51's "launch unchanged" is not met).
    static let budget = 207_000_000

    /// Launches counted; the fewest instructions is compared with the budget. Now and then a
    /// launch counts ~10 M more (172.2 M among 162.1 M ones on an idle machine: work that a race
    /// of the launch's threads sometimes adds); the fewest of five is the launch's own cost.
    static let runs = 5

    @Test func launchStaysWithinItsInstructionBudget() async throws {
        let script = Products.repositoryRoot.appendingPathComponent("scripts/count-launch-instructions").path
        // The script fails with a message naming what is missing (valgrind, a C compiler, objcopy):
        // this test fails with it rather than skipping (CI installs valgrind: scripts/install-dependencies).
        let child = try ChildProcess(
            "/bin/bash", [script, "--binary", Products.apiexplorer.path, "--runs", "\(Self.runs)"], environment: ProcessInfo.processInfo.environment,
            directory: Products.repositoryRoot.path)
        let result = await child.finish()
        try #require(result.status == 0, "scripts/count-launch-instructions failed: \(result.errors)")
        let counts = result.output.split(whereSeparator: \.isNewline).compactMap { Int($0) }
        try #require(counts.count == Self.runs, "not \(Self.runs) counts: \(result.output)")
        let count = counts.min() ?? 0
        #expect(
            count <= Self.budget,
            """
            The launch took at least \(count) instructions in \(Self.runs) runs (\(counts)), over its budget of \(Self.budget) \
            (+\(count - Self.budget)): \
            find what it runs now that it did not (`valgrind --tool=callgrind` on the same launch, \
            scripts/count-launch-instructions shows how), or raise LaunchBudgetTests.budget with a reason.
            """)
    }
}
