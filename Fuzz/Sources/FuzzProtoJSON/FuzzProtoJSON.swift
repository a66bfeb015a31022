import FoundationEssentials
import FuzzDriver
import JSONSupport
@testable import ProtoJSON

@_cdecl("FuzzProtoJSON_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// The conformance tests' descriptors (Tests/ProtoJSONTests/Resources/protos), compiled with
/// `python3 -m grpc_tools.protoc -ITests/ProtoJSONTests/Resources/protos --include_imports
/// --descriptor_set_out=Fuzz/Descriptors/conformance.protoset` and the file names, sorted.
let protoset = (try? Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Descriptors/conformance.protoset"))) ?? Data()
let pool = try! DescriptorPool(protoset: protoset)
/// The message types an input picks from, by name so that seeds stay valid when the set changes order.
let types = pool.messages.filter { !$0.isMapEntry }.map(\.fullName).sorted().compactMap { pool.messageID(named: $0) }

/// The first byte picks what the rest is: a descriptor set; a binary message or JSON text of the
/// type the second byte picks. What reads must write and read back equal: binary to the same
/// message, JSON to the same JSON.
func exercise(_ data: Data) {
    guard data.count >= 2 else { return }
    let mode = data[data.startIndex]
    let type = types[Int(data[data.startIndex + 1]) % types.count]
    let body = [UInt8](data.dropFirst(2))
    switch mode % 3 {
    case 0:
        guard let other = try? DescriptorPool(protoset: body) else { return }
        for id in other.messages.indices.prefix(8).map(MessageID.init(index:)) {
            _ = other.skeleton(of: id)
            _ = try? other.decode(body, as: id)
        }
    case 1:
        guard let message = try? pool.decode(body, as: type) else { return }
        checkBinaryRoundTrip(message)
        if let json = try? pool.json(message) { checkJSONRoundTrip(json, type) }
    default:
        guard let message = try? pool.message(fromJSONText: String(decoding: body, as: UTF8.self), as: type) else { return }
        checkBinaryRoundTrip(message)
        if let json = try? pool.json(message) { checkJSONRoundTrip(json, type) }
    }
}

/// Written and read again, a message is the same message, and written again the same bytes.
func checkBinaryRoundTrip(_ message: ProtoMessage) {
    let bytes = pool.encode(message)
    guard let again = try? pool.decode(bytes, as: message.type) else { fatalError("a message written could not be read back: \(bytes)") }
    guard again == message else { fatalError("a message read back differs from the one written: \(bytes)") }
    guard pool.encode(again) == bytes else { fatalError("a message read back writes other bytes: \(bytes)") }
}

/// The JSON a message writes reads back, and writes the same JSON again.
func checkJSONRoundTrip(_ json: JSONValue, _ type: MessageID) {
    let message: ProtoMessage
    do {
        message = try pool.message(fromJSON: json, as: type, options: ProtoJSONParseOptions(depthLimit: 2 * DescriptorPool.defaultDepthLimit, checksRequiredFields: false))
    } catch {
        fatalError("JSON written could not be read back: \(error): \(json.compactText)")
    }
    guard let again = try? pool.json(message), again == json else { fatalError("JSON read back writes other JSON: \(json.compactText)") }
}
