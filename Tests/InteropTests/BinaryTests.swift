import Testing
import TestTraits

/// The suites that start the built `apiexplorer`: run one test at a time, so at most one such
/// process runs beside the rest of the test run (the machines this runs on may have 2 cores, and
/// other modules' tests measure time).
@Suite(.offPool, .serialized) enum BinaryTests {}
