import FoundationEssentials
import FuzzDriver

@testable import HTTPEcho

@_cdecl("FuzzMultipart_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A multipart body, as the mock's and stub mode's echo reads it: the first line (up to 70 bytes)
/// is the boundary, the rest the body. Every part read lies inside the body; never a trap.
func exercise(_ data: Data) {
    let newline = data.firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
    let boundary = String(decoding: data[data.startIndex..<newline].prefix(70), as: UTF8.self)
    let body = Data(data[min(newline + 1, data.endIndex)...])
    for part in RequestEcho.multipartParts(body, boundary: boundary) {
        precondition(part.data.count <= body.count, "a part larger than its body")
    }
    _ = RequestEcho.body(
        method: "POST", uri: "/upload?" + boundary, headers: [("Content-Type", "multipart/form-data; boundary=\"\(boundary)\"")], body: body,
        truncated: false)
}
