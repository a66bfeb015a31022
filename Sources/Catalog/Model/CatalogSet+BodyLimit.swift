import DispatcherCore

extension CatalogSet {
    /// The catalogs with every environment's response body cap (`maxBodySize`) replaced by
    /// `maximumBodySize` (`--max-body-size` on the command line); unchanged for nil.
    package func limitingBodies(to maximumBodySize: Int?) -> CatalogSet {
        guard let maximumBodySize else { return self }
        var limited = self
        for service in limited.services.indices {
            for environment in limited.services[service].environments.indices {
                limited.services[service].environments[environment].maximumBodySize = maximumBodySize
            }
        }
        return limited
    }

    /// A size as catalogs and `--max-body-size` write it: bytes (`1048576`) or with a unit
    /// (`512KB`, `10MiB`, `1GB`); nil when it is not one, or not above zero.
    package static func byteCount(_ text: String) -> Int? {
        if let bytes = Int(text) { return bytes > 0 ? bytes : nil }
        return CatalogFileDecoder.parseByteCount(text)
    }
}
