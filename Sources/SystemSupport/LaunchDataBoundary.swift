// Alone in their file: each file's globals are one section of the object the compiler emits, and
// the linker moves whole sections.

/// Where the `.bss` a launch writes ends: scripts/launch-order.txt lists this global's section
/// right after the sections a launch writes to, so the release build lays them out before it
/// (see `WritableDataPrefault`). Never read or written; only its address counts.
nonisolated(unsafe) var launchZeroDataBoundary: UInt8 = 0

/// The same for `.data` (a value other than zero keeps it there).
nonisolated(unsafe) var launchDataBoundary: UInt8 = 1
