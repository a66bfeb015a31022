import DispatcherCore
import YAMLSupport

extension CatalogFileDecoder {
    static let streamKeys = ["reconnect"]

    /// `stream: true`, `stream: false`, or `stream: { reconnect: true }`.
    func decodeStream(_ node: YAMLNode, _ subject: String) -> StreamSettings? {
        if case .mapping = node.content {
            guard let fields = entries(node, "'stream' of \(subject)", allowed: Self.streamKeys) else { return nil }
            var settings = StreamSettings()
            for field in fields where field.key == "reconnect" {
                settings.reconnect = boolean(field.value, "'reconnect' in the stream of \(subject)") ?? false
            }
            return settings
        }
        guard let streams = boolean(node, "'stream' of \(subject) (true, or a mapping with 'reconnect')") else { return nil }
        return streams ? StreamSettings() : nil
    }
}
