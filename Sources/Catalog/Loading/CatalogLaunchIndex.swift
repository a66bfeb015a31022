import DispatcherCore
import FoundationEssentials

/// What the explorer's first frame draws of a catalog folder, and nothing more: services, their
/// environments' names and types, groups, and each endpoint's id, title, group, method and path.
/// Kept next to the parsed-catalog cache so a launch on unchanged files draws at once, while the
/// full load runs behind it. Made only from a load without errors (a file with errors always loads
/// in full); its warnings are kept, word for word and place for place.
package struct CatalogLaunchIndex: Sendable, Equatable {
    package struct ServiceEntry: Sendable, Equatable {
        var id: String
        var title: String
        var summary: String?
        var file: String
        var isTrusted: Bool
        var environments: [EnvironmentEntry]
        var groups: [GroupEntry]
        var endpoints: [EndpointEntry]
        var diagnostics: [Diagnostic]
    }

    struct EnvironmentEntry: Sendable, Equatable {
        var name: String
        var type: String
        var baseURL: String
    }

    struct GroupEntry: Sendable, Equatable {
        var id: String
        var title: String
    }

    struct EndpointEntry: Sendable, Equatable {
        var id: String
        var title: String
        var summary: String?
        var group: String?
        var method: String
        var path: String
        var line: Int
        var column: Int
    }

    package var services: [ServiceEntry]
    /// The load's warnings.
    var diagnostics: [Diagnostic]

    /// The index of a load; nil when it has an error (errors are shown by a full load only).
    package init?(_ catalog: CatalogSet) {
        guard !catalog.hasErrors, catalog.source.directory != nil else { return nil }
        diagnostics = catalog.diagnostics
        services = catalog.services.map { service in
            ServiceEntry(
                id: service.id, title: service.title, summary: service.summary, file: service.file, isTrusted: service.isTrusted,
                environments: service.environments.map { EnvironmentEntry(name: $0.name, type: $0.type.description, baseURL: $0.baseURL.absoluteString) },
                groups: service.groups.map { GroupEntry(id: $0.id, title: $0.title) },
                endpoints: service.endpoints.map {
                    EndpointEntry(
                        id: $0.id, title: $0.title, summary: $0.summary, group: $0.group, method: $0.method.rawValue, path: $0.path,
                        line: $0.location.line, column: $0.location.column)
                },
                diagnostics: service.diagnostics)
        }
    }

    /// How many endpoints it lists.
    package var endpointCount: Int { services.reduce(0) { $0 + $1.endpoints.count } }

    /// A catalog set to draw until the full load arrives: the services as the index has them, every
    /// other field empty. Nothing may be sent or edited from it (the explorer holds keys meanwhile).
    package func preview(source: CatalogSource) -> CatalogSet? {
        var services: [Service] = []
        for entry in self.services {
            var environments: [Environment] = []
            for environment in entry.environments {
                guard let url = URL(string: environment.baseURL) else { return nil }
                environments.append(Environment(name: environment.name, type: EnvironmentType(label: environment.type), baseURL: url))
            }
            var endpoints: [CatalogEndpoint] = []
            endpoints.reserveCapacity(entry.endpoints.count)
            for endpoint in entry.endpoints {
                guard let method = HTTPMethod(rawValue: endpoint.method) else { return nil }
                endpoints.append(CatalogEndpoint(
                    id: endpoint.id, serviceID: entry.id, title: endpoint.title, summary: endpoint.summary, group: endpoint.group, method: method,
                    path: endpoint.path, location: SourceLocation(file: entry.file, line: endpoint.line, column: endpoint.column)))
            }
            var service = Service(
                id: entry.id, title: entry.title, summary: entry.summary, file: entry.file, directory: source.directory, environments: environments,
                groups: entry.groups.map { EndpointGroup(id: $0.id, title: $0.title) }, endpoints: endpoints, diagnostics: entry.diagnostics)
            service.isTrusted = entry.isTrusted
            // Its state is the file's, as when the file itself loads.
            service.catalogID = CatalogID(file: PathText.lastComponent(of: entry.file), in: source.directory)
            services.append(service)
        }
        return CatalogSet(services: services, diagnostics: diagnostics, source: source)
    }
}

// MARK: - Bytes

extension CatalogLaunchIndex {
    /// The format's number: an index of another format is not read.
    package static let format: UInt32 = 1

    /// The index as bytes (little-endian counts, length-prefixed UTF-8 texts).
    package func encoded() -> [UInt8] {
        var writer = IndexWriter()
        writer.diagnostics(diagnostics)
        writer.count(services.count)
        for service in services {
            writer.text(service.id)
            writer.text(service.title)
            writer.optionalText(service.summary)
            writer.text(service.file)
            writer.bytes.append(service.isTrusted ? 1 : 0)
            writer.count(service.environments.count)
            for environment in service.environments {
                writer.text(environment.name)
                writer.text(environment.type)
                writer.text(environment.baseURL)
            }
            writer.count(service.groups.count)
            for group in service.groups {
                writer.text(group.id)
                writer.text(group.title)
            }
            writer.count(service.endpoints.count)
            for endpoint in service.endpoints {
                writer.text(endpoint.id)
                writer.text(endpoint.title)
                writer.optionalText(endpoint.summary)
                writer.optionalText(endpoint.group)
                writer.text(endpoint.method)
                writer.text(endpoint.path)
                writer.count(endpoint.line)
                writer.count(endpoint.column)
            }
            writer.diagnostics(service.diagnostics)
        }
        return writer.bytes
    }

    /// Reads `encoded()`'s bytes; nil for anything else (truncated, damaged, trailing bytes), without
    /// reading past the end or reserving more than the bytes could hold.
    package init?(decoding bytes: UnsafeRawBufferPointer) {
        var reader = IndexReader(bytes: bytes)
        guard let diagnostics = reader.diagnostics(), let serviceCount = reader.count(eachAtLeast: 4) else { return nil }
        var services: [ServiceEntry] = []
        for _ in 0..<serviceCount {
            guard let id = reader.text(), let title = reader.text(), let summary = reader.optionalText(), let file = reader.text(),
                let trusted = reader.byte(), trusted <= 1, let environmentCount = reader.count(eachAtLeast: 12)
            else { return nil }
            var environments: [EnvironmentEntry] = []
            for _ in 0..<environmentCount {
                guard let name = reader.text(), let type = reader.text(), let baseURL = reader.text() else { return nil }
                environments.append(EnvironmentEntry(name: name, type: type, baseURL: baseURL))
            }
            guard let groupCount = reader.count(eachAtLeast: 8) else { return nil }
            var groups: [GroupEntry] = []
            for _ in 0..<groupCount {
                guard let id = reader.text(), let title = reader.text() else { return nil }
                groups.append(GroupEntry(id: id, title: title))
            }
            guard let endpointCount = reader.count(eachAtLeast: 26) else { return nil }
            var endpoints: [EndpointEntry] = []
            endpoints.reserveCapacity(endpointCount)
            for _ in 0..<endpointCount {
                guard let id = reader.text(), let title = reader.text(), let summary = reader.optionalText(), let group = reader.optionalText(),
                    let method = reader.text(), let path = reader.text(), let line = reader.position(), let column = reader.position()
                else { return nil }
                endpoints.append(EndpointEntry(
                    id: id, title: title, summary: summary, group: group, method: method, path: path, line: line, column: column))
            }
            guard let serviceDiagnostics = reader.diagnostics() else { return nil }
            services.append(ServiceEntry(
                id: id, title: title, summary: summary, file: file, isTrusted: trusted == 1, environments: environments, groups: groups,
                endpoints: endpoints, diagnostics: serviceDiagnostics))
        }
        guard reader.isAtEnd else { return nil }
        self.services = services
        self.diagnostics = diagnostics
    }
}

private struct IndexWriter {
    var bytes: [UInt8] = []

    mutating func count(_ value: Int) {
        withUnsafeBytes(of: UInt32(clamping: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func text(_ value: String) {
        count(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    mutating func diagnostics(_ diagnostics: [Diagnostic]) {
        count(diagnostics.count)
        for diagnostic in diagnostics {
            text(diagnostic.file)
            count(diagnostic.line)
            count(diagnostic.column)
            bytes.append(diagnostic.isError ? 1 : 0)
            text(diagnostic.message)
        }
    }

    /// A byte saying whether a text follows.
    mutating func optionalText(_ value: String?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { text(value) }
    }
}

private struct IndexReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func count() -> Int? {
        guard bytes.count - offset >= 4 else { return nil }
        defer { offset += 4 }
        return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// A 1-based line or column: 0 is never written, so it marks a damaged index.
    mutating func position() -> Int? {
        guard let value = count(), value >= 1 else { return nil }
        return value
    }

    /// A count of records each at least `size` bytes long: nil when the bytes left cannot hold them.
    mutating func count(eachAtLeast size: Int) -> Int? {
        guard let value = count(), value <= (bytes.count - offset) / size else { return nil }
        return value
    }

    mutating func text() -> String? {
        guard let length = count(), length <= bytes.count - offset else { return nil }
        defer { offset += length }
        return String(validating: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
    }

    mutating func diagnostics() -> [Diagnostic]? {
        guard let number = count(eachAtLeast: 17) else { return nil }
        var diagnostics: [Diagnostic] = []
        for _ in 0..<number {
            guard let file = text(), let line = position(), let column = position(), let severity = byte(), severity <= 1, let message = text()
            else { return nil }
            diagnostics.append(Diagnostic(file: file, line: line, column: column, severity: severity == 1 ? .error : .warning, message: message))
        }
        return diagnostics
    }

    /// nil: damaged; `.some(nil)`: no text.
    mutating func optionalText() -> String?? {
        switch byte() {
        case 0: .some(nil)
        case 1: text().map { .some($0) }
        default: nil
        }
    }
}
