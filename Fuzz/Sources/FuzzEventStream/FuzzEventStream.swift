@testable import DispatcherCore
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzEventStream_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A `text/event-stream` body, read whole and read in two chunks cut where the first byte says:
/// the events must be the same however the bytes arrive (a CR at the end of one chunk and a LF
/// at the start of the next are one line end).
func exercise(_ data: Data) {
    let bytes = [UInt8](data)
    var whole = ServerSentEventParser()
    let expected = whole.parse(bytes)
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var split = ServerSentEventParser()
    let events = split.parse(bytes[..<cut]) + split.parse(bytes[cut...])
    precondition(events == expected, "events differ when the stream is cut at \(cut)")
    precondition(split.lastEventID == whole.lastEventID && split.retry == whole.retry)
}
