import Foundation
import Synchronization
import Yams

/// Loads every catalog file of a folder. One broken file never stops the others: it yields
/// diagnostics (and no service, or the service without its broken endpoints and environments).
public enum CatalogLoader {
    /// Catalog files are the `*.yaml` and `*.yml` files directly in the folder; fixtures live in subfolders.
    public static let fileExtensions: Set<String> = ["yaml", "yml"]

    /// Loads the catalogs `source` points at.
    public static func load(_ source: CatalogSource) -> CatalogSet {
        guard let directory = source.directory else {
            return load(fileSystem: BundledCatalogs.fileSystem, source: source)
        }
        return load(fileSystem: DiskFileSystem(root: directory), source: source)
    }

    /// Loads the catalogs of a file system, reading files in parallel.
    public static func load(fileSystem: any CatalogFileSystem, source: CatalogSource) -> CatalogSet {
        let names: [String]
        do {
            names = try fileSystem.fileNames()
        } catch {
            let diagnostic = Diagnostic(file: source.displayPath, line: 1, column: 1, severity: .error, message: error.message)
            return CatalogSet(services: [], diagnostics: [diagnostic], source: source)
        }
        let files = names.filter { name in
            !name.hasPrefix(".") && fileExtensions.contains((name as NSString).pathExtension.lowercased())
        }.sorted()

        let results = Mutex([ParsedFile?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let name = files[index]
            let parsed = parseFile(named: name, source: source, fileSystem: fileSystem)
            results.withLock { $0[index] = parsed }
        }
        var services: [Service] = []
        var diagnostics: [Diagnostic] = []
        var seen: [String: Diagnostic] = [:]
        for case let parsed? in results.withLock({ $0 }) {
            diagnostics += parsed.diagnostics
            guard let service = parsed.service else { continue }
            if let first = seen[service.id] {
                diagnostics.append(Diagnostic(
                    file: parsed.idLocation.file, line: parsed.idLocation.line, column: parsed.idLocation.column, severity: .error,
                    message: "duplicate service id '\(service.id)' (also defined at \(first.file):\(first.line):\(first.column)); this file was not loaded"))
                continue
            }
            seen[service.id] = Diagnostic(
                file: parsed.idLocation.file, line: parsed.idLocation.line, column: parsed.idLocation.column, severity: .error, message: "")
            services.append(service)
        }
        if files.isEmpty {
            diagnostics.append(Diagnostic(
                file: source.displayPath, line: 1, column: 1, severity: .warning,
                message: "no catalog files (*.yaml, *.yml) in this folder"))
        }
        diagnostics += DotEnvCheck.diagnostics(for: source, fileSystem: fileSystem)
        return CatalogSet(services: services, diagnostics: diagnostics, source: source)
    }

    /// One file's outcome.
    struct ParsedFile {
        var service: Service?
        var diagnostics: [Diagnostic]
        var idLocation: SourceLocation
    }

    static func parseFile(named name: String, source: CatalogSource, fileSystem: any CatalogFileSystem) -> ParsedFile {
        let shown = source.displayPath(of: name)
        guard let data = fileSystem.contents(of: name) else {
            return ParsedFile(
                service: nil, diagnostics: [Diagnostic(file: shown, line: 1, column: 1, severity: .error, message: "the file cannot be read")],
                idLocation: SourceLocation(file: shown, line: 1, column: 1))
        }
        return parse(data: data, fileName: name, file: shown, directory: source.directory, fileSystem: fileSystem)
    }

    /// Reads one catalog file's bytes into a service and its diagnostics (sorted by position).
    static func parse(data: Data, fileName: String, file: String, directory: URL?, fileSystem: any CatalogFileSystem) -> ParsedFile {
        var location = SourceLocation(file: file, line: 1, column: 1)
        guard let text = String(data: data, encoding: .utf8) else {
            let line = firstInvalidUTF8Line(data)
            return ParsedFile(
                service: nil, diagnostics: [Diagnostic(file: file, line: line, column: 1, severity: .error, message: "the file is not UTF-8 text")],
                idLocation: location)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, .basic)
        } catch {
            let decoder = CatalogFileDecoder(file: file, fileName: fileName, text: text, fileSystem: fileSystem)
            return ParsedFile(service: nil, diagnostics: [YAMLErrorDiagnostic.make(error, file: file, text: text, decoder: decoder)], idLocation: location)
        }
        guard let root else {
            return ParsedFile(
                service: nil,
                diagnostics: [Diagnostic(file: file, line: 1, column: 1, severity: .warning, message: "the file is empty, so it describes no service")],
                idLocation: location)
        }
        let decoder = CatalogFileDecoder(file: file, fileName: fileName, text: text, fileSystem: fileSystem)
        let service = decoder.decodeService(root, directory: directory)
        if case .mapping(let mapping) = root, let idNode = mapping.first(where: { $0.key.scalar?.string == "service" })?.value, let mark = idNode.mark {
            location = SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        let diagnostics = decoder.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        var loaded = service
        loaded?.diagnostics = diagnostics
        return ParsedFile(service: loaded, diagnostics: diagnostics, idLocation: location)
    }

    /// The line of the first byte that is not valid UTF-8.
    static func firstInvalidUTF8Line(_ data: Data) -> Int {
        var line = 1
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") { line += 1 }
            case .error: return line
            case .emptyInput: return line
            }
        }
    }
}

/// Turns a Yams error into a diagnostic at its line and column.
enum YAMLErrorDiagnostic {
    static func make(_ error: any Error, file: String, text: String, decoder: CatalogFileDecoder) -> Diagnostic {
        func diagnostic(_ line: Int, _ column: Int, _ message: String) -> Diagnostic {
            Diagnostic(file: file, line: line, column: column, severity: .error, message: message)
        }
        guard let yamlError = error as? YamlError else {
            return diagnostic(1, 1, "the file cannot be read as YAML: \(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            if problem == "but found another document" {
                return diagnostic(mark.line, mark.column, "YAML syntax: a second document starts here; a catalog file holds one document")
            }
            var message = "YAML syntax: \(problem)"
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            return diagnostic(mark.line, mark.column, message)
        case .reader(let problem, let offset, _, _):
            let (line, column) = position(ofCharacterOffset: offset ?? 0, in: text)
            return diagnostic(line, column, "the file cannot be read as YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? "?"
            let (line, column) = decoder.secondOccurrence(of: key, after: context.mark)
            let first = line == context.mark.line ? "" : " (first defined at line \(context.mark.line))"
            return diagnostic(line, column, "duplicate key '\(key)'\(first): ids and keys must be unique")
        default:
            return diagnostic(1, 1, "the file cannot be read as YAML: \(yamlError)")
        }
    }

    /// 1-based line and column of a character offset.
    static func position(ofCharacterOffset offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for (index, character) in text.unicodeScalars.enumerated() {
            if index >= offset { break }
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
