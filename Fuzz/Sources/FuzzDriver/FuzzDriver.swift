import FoundationEssentials

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzer(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer on one target's input function. SwiftPM names an executable's entry point
/// `TARGET_main`, which each target defines to call `FuzzDriver.run`.
public enum FuzzDriver {
    /// The input function: must never crash, hang or trap, whatever the bytes. Set once, before
    /// libFuzzer starts, and only read after.
    nonisolated(unsafe) static var exercise: (Data) -> Void = { _ in }

    /// Runs libFuzzer with the process arguments (`-max_total_time=10 Corpus/…`).
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, exercise: @escaping (Data) -> Void
    ) -> CInt {
        Self.exercise = exercise
        var argc = argc
        var argv = argv
        return runFuzzer(&argc, &argv) { start, count in
            FuzzDriver.exercise(Data(UnsafeBufferPointer(start: start, count: count)))
            return 0
        }
    }
}

/// libFuzzer's main looks this up; the driver runs through `LLVMFuzzerRunDriver` instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzDriver.exercise(Data(UnsafeBufferPointer(start: start, count: count)))
    return 0
}
