import FoundationEssentials
import FuzzDriver
import NIOCore
import NIOHPACK

@testable import GRPCWire

@_cdecl("FuzzGRPCWire_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// What a gRPC server sends, read as the client reads it. The first byte picks the receive limit
/// and how the rest is split into DATA frames; the rest is the stream's bytes, and also, as they
/// are, a `grpc-status-details-bin`, protobuf fields, and `name: value` header lines. Never a trap,
/// never a message over the limit.
func exercise(_ data: Data) {
    guard let first = data.first else { return }
    let bytes = Array(data.dropFirst())
    let limit = 1 << Int(first & 0x0F + 4)
    let split = Int(first >> 4) * 37 + 1
    for encoding in [nil, "gzip", "snappy"] as [String?] {
        var reader = GRPCMessageReader(limit: limit, encodingName: encoding, sender: "the server")
        var offset = 0
        reading: while offset < bytes.count {
            reader.append(ByteBuffer(bytes: bytes[offset..<min(offset + split, bytes.count)]))
            offset += split
            while true {
                do {
                    guard let message = try reader.next() else { break }
                    precondition(message.count <= limit, "a message over the receive limit")
                } catch {
                    break reading
                }
            }
        }
        _ = try? reader.finish()
    }
    let decoded = GRPCStatusDetails.decode(bytes)
    _ = decoded.details.flatMap(\.lines)
    if let fields = ProtobufFields(decoding: bytes) {
        precondition(ProtobufFields(decoding: fields.encoded) == fields, "fields read back differently")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    var headers = HPACKHeaders()
    for line in text.split(separator: "\n").prefix(32) {
        let parts = line.split(separator: ":", maxSplits: 1)
        headers.add(name: String(parts.first ?? "").lowercased(), value: String(parts.dropFirst().first ?? ""))
    }
    _ = GRPCHeaders.responseHead(headers, endStream: first & 1 == 1, authority: "fuzz")
    _ = GRPCHeaders.trailers(headers, authority: "fuzz")
    _ = GRPCHeaders.requestHead(headers)
    _ = GRPCMessageText.decode(text)
}
