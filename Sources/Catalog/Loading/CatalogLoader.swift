import DispatcherCore
import FoundationEssentials
import Synchronization
import Dispatch
import SystemSupport
import YAMLSupport

/// Loads every catalog file of a folder. One broken file never stops the others: it yields
/// diagnostics (and no service, or the service without its broken endpoints and environments).
public enum CatalogLoader {
    /// Catalog files are the `*.yaml` and `*.yml` files directly in the folder; fixtures live in subfolders.
    package static let fileExtensions: Set<String> = ["yaml", "yml"]

    /// Whether a name in the folder is a catalog file (`*.yaml`, `*.yml`, not hidden).
    package static func isCatalogFile(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.contains("/") && fileExtensions.contains(PathText.fileExtension(of: name).lowercased())
    }

    /// Loads the catalogs `source` points at. Files on disk are trusted as `trust` says (see
    /// `CatalogTrust`; by default none is, but copies of the bundled ones); the bundled catalogs are.
    public static func load(_ source: CatalogSource, trust: CatalogTrust = .nothing) -> CatalogSet {
        guard let directory = source.directory else {
            return load(fileSystem: BundledCatalogs.fileSystem, source: source)
        }
        return load(fileSystem: DiskFileSystem(root: directory), source: source, trust: trust)
    }

    /// Loads the catalogs of a file system, reading files in parallel. Files of a folder held in
    /// memory are trusted (the program made them); files on disk as `trust` says.
    package static func load(fileSystem: any CatalogFileSystem, source: CatalogSource, trust: CatalogTrust = .nothing) -> CatalogSet {
        reload(fileSystem: fileSystem, source: source, previous: nil, changedFiles: nil, trust: trust)
    }

    /// Loads the catalogs `source` points at again after some files changed: only the catalog
    /// files named in `changedFiles` are read again (nil: every file), the others are taken from
    /// `previous`. A changed file that now has errors keeps the service it last loaded without
    /// errors, with its new diagnostics and a warning saying so, until it is fixed.
    /// `trust` is the previous load's when not given; a file whose trust changed is read again.
    package static func reload(_ source: CatalogSource, previous: CatalogSet?, changedFiles: Set<String>?, trust: CatalogTrust? = nil) -> CatalogSet {
        guard let directory = source.directory else { return load(source) }
        return reload(
            fileSystem: DiskFileSystem(root: directory), source: source, previous: previous, changedFiles: changedFiles,
            trust: trust ?? previous?.trust ?? .nothing)
    }

    /// `reload(_:previous:changedFiles:trust:)` on a file system.
    package static func reload(
        fileSystem: any CatalogFileSystem, source: CatalogSource, previous: CatalogSet?, changedFiles: Set<String>?, trust: CatalogTrust = .nothing
    ) -> CatalogSet {
        reload(fileSystem: fileSystem, source: source, previous: previous, changedFiles: changedFiles, trust: trust, cache: nil)
    }

    /// `load(_:trust:)` keeping what parsing each file gave in `cache`, so that files unchanged
    /// since are not parsed again; fixture files of a folder on disk read as `fixtures` says.
    package static func load(
        _ source: CatalogSource, trust: CatalogTrust = .nothing, cache: (any CatalogParseCache)?, fixtures: FixtureReading = .atLoad,
        progress: CatalogLoadProgress? = nil
    ) -> CatalogSet {
        guard let directory = source.directory else { return load(source, trust: trust) }
        return reload(
            fileSystem: DiskFileSystem(root: directory), source: source, previous: nil, changedFiles: nil, trust: trust, cache: cache,
            fixtures: fixtures, progress: progress)
    }

    /// `reload(_:previous:changedFiles:trust:)` with `cache` (see `load(_:trust:cache:)`).
    package static func reload(
        _ source: CatalogSource, previous: CatalogSet?, changedFiles: Set<String>?, trust: CatalogTrust? = nil, cache: (any CatalogParseCache)?,
        fixtures: FixtureReading = .atLoad
    ) -> CatalogSet {
        guard let directory = source.directory else { return load(source) }
        return reload(
            fileSystem: DiskFileSystem(root: directory), source: source, previous: previous, changedFiles: changedFiles,
            trust: trust ?? previous?.trust ?? .nothing, cache: cache, fixtures: fixtures)
    }

    /// `reload(fileSystem:source:previous:changedFiles:trust:)` with `cache`, used for files on
    /// disk only (a folder in memory has no file to key it by), reading fixture files as `fixtures` says.
    package static func reload(
        fileSystem: any CatalogFileSystem, source: CatalogSource, previous: CatalogSet?, changedFiles: Set<String>?, trust: CatalogTrust,
        cache: (any CatalogParseCache)?, fixtures: FixtureReading = .atLoad, progress: CatalogLoadProgress? = nil,
        fileLimit: Int = maximumFileCount
    ) -> CatalogSet {
        // A folder in memory is the program's own; trust decides only for files on disk.
        let trust = fileSystem is DiskFileSystem ? trust : .everything
        let names: [String]
        do {
            names = try fileSystem.fileNames()
        } catch {
            let diagnostic = Diagnostic(file: source.displayPath, line: 1, column: 1, severity: .error, message: error.message)
            return CatalogSet(services: [], diagnostics: [diagnostic], source: source)
        }
        let catalogFiles = names.filter(isCatalogFile).sorted()
        // A folder holding more catalog files than anyone browses is someone else's doing (a
        // tarball, a generator gone wrong): the first ones in name order load, the rest are named.
        let files = Array(catalogFiles.prefix(fileLimit))
        progress?.begin(total: files.count)

        // What an earlier load read is kept unless the trust it was read with changed.
        let earlier = previous?.source == source && previous?.trust == trust ? previous?.parsedFiles ?? [:] : [:]
        let results = Mutex([ParsedFile?](repeating: nil, count: files.count))
        let toRead = files.indices.filter { index in
            guard let changedFiles, let kept = earlier[files[index]] else { return true }
            if changedFiles.contains(files[index]) { return true }
            results.withLock { $0[index] = kept }
            return false
        }
        DispatchQueue.concurrentPerform(iterations: toRead.count) { position in
            // Stopped: the files left are not read (the caller drops what this load returns).
            if progress?.isCancelled == true { return }
            defer { progress?.fileRead() }
            let index = toRead[position]
            let name = files[index]
            var parsed = parseFile(named: name, source: source, fileSystem: fileSystem, trust: trust, cache: cache, fixtures: fixtures)
            if let lastGood = earlier[name]?.lastGood, parsed.diagnostics.contains(where: \.isError) {
                parsed.keep(lastGood, file: source.displayPath(of: name))
            }
            results.withLock { $0[index] = parsed }
        }
        var services: [Service] = []
        var diagnostics: [Diagnostic] = []
        var seen: [String: Diagnostic] = [:]
        var parsedFiles: [String: ParsedFile] = [:]
        let outcomes = results.withLock { $0 }
        for (index, outcome) in outcomes.enumerated() {
            guard let parsed = outcome else { continue }
            parsedFiles[files[index]] = parsed
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
        if catalogFiles.count > files.count {
            diagnostics.append(tooManyFiles(catalogFiles.dropFirst(files.count), limit: fileLimit, in: source))
        }
        cache?.finishLoad()
        if files.isEmpty {
            diagnostics.append(Diagnostic(
                file: source.displayPath, line: 1, column: 1, severity: .warning,
                message: "no catalog files (*.yaml, *.yml) in this folder"))
        }
        diagnostics += DotEnvCheck.diagnostics(for: source, fileSystem: fileSystem)
        var catalog = CatalogSet(services: services, diagnostics: diagnostics, source: source)
        catalog.parsedFiles = parsedFiles
        catalog.trust = trust
        for index in toRead {
            catalog.readCounts.parsed += outcomes[index]?.wasParsed == true ? 1 : 0
            catalog.readCounts.cached += outcomes[index]?.wasCached == true ? 1 : 0
        }
        return catalog
    }

    /// One file's outcome.
    struct ParsedFile: Sendable {
        var service: Service?
        var diagnostics: [Diagnostic]
        var idLocation: SourceLocation
        /// The service as the file last loaded without errors (itself when it has none).
        var lastGood: Service?
        /// Whether its YAML was parsed (not found in the cache).
        var wasParsed = false
        /// Whether its parsed YAML came from the cache.
        var wasCached = false

        init(service: Service?, diagnostics: [Diagnostic], idLocation: SourceLocation) {
            self.service = service
            self.diagnostics = diagnostics
            self.idLocation = idLocation
            lastGood = diagnostics.contains(where: \.isError) ? nil : service
        }

        /// Loads `lastGood` instead of what the file now holds, saying so next to the file's errors.
        mutating func keep(_ lastGood: Service, file: String) {
            let note = Diagnostic(
                file: file, line: 1, column: 1, severity: .warning,
                message: "the file has errors: the explorer keeps its last good version of '\(lastGood.id)' until they are fixed")
            diagnostics.insert(note, at: 0)
            var kept = lastGood
            kept.diagnostics = diagnostics
            service = kept
            self.lastGood = lastGood
        }
    }

    /// The most catalog files a folder loads: 10,000 services are more than a sidebar can be browsed
    /// by, and what a launch reads within 2 s here (docs/performance.md). Files after them in
    /// name order are left out, named in one error.
    package static let maximumFileCount = 10_000

    /// The error for the files over `maximumFileCount`: how many, the first and last few by name.
    static func tooManyFiles(_ left: ArraySlice<String>, limit: Int, in source: CatalogSource) -> Diagnostic {
        let shown = left.count <= 6 ? Array(left) : Array(left.prefix(3)) + ["…"] + Array(left.suffix(2))
        let message = "the folder holds \(limit + left.count) catalog files, more than the \(limit) a folder may hold: "
            + "the first \(limit) by name were loaded, these \(left.count) were not: \(shown.joined(separator: ", ")); "
            + "split the catalogs into several folders"
        return Diagnostic(file: source.displayPath, line: 1, column: 1, severity: .error, message: message)
    }

    /// The largest catalog file read (a 10,000-endpoint catalog is ~2 MB): a larger one is refused
    /// by its size before a byte is read, so loading stays quick whatever is in the folder.
    package static let maximumFileSize = 16 << 20

    static func parseFile(
        named name: String, source: CatalogSource, fileSystem: any CatalogFileSystem, trust: CatalogTrust = .everything,
        cache: (any CatalogParseCache)? = nil, fixtures: FixtureReading = .atLoad
    ) -> ParsedFile {
        let shown = source.displayPath(of: name)
        // The file's identity is taken before its bytes are read: a write in between changes it
        // after, and the parse is then not kept.
        let cached = cache.flatMap { cache in
            fileSystem is DiskFileSystem ? fileSystem.filePath(for: name).flatMap { path in
                FileIdentity(path: path).map { CachedFile(cache: cache, path: path, identity: $0) }
            } : nil
        }
        let data: Data
        do throws(FileReadError) {
            // Only a regular file, and no more than the limit: checked before memory is spent.
            data = try fileSystem.contents(of: name, atMost: maximumFileSize)
        } catch {
            return ParsedFile(
                service: nil, diagnostics: [Diagnostic(file: shown, line: 1, column: 1, severity: .error, message: unreadable(error))],
                idLocation: SourceLocation(file: shown, line: 1, column: 1))
        }
        return parse(
            data: data, fileName: name, file: shown, directory: source.directory, fileSystem: fileSystem, trust: trust, cached: cached,
            fixtures: fixtures)
    }

    /// Why a catalog file was not read, said of "the file" (the diagnostic names it).
    static func unreadable(_ error: FileReadError) -> String {
        switch error {
        case .tooLarge:
            "the file holds more than the \(FileReadError.limitText(maximumFileSize)) a catalog file may hold: "
                + "split its endpoints into several files, and keep large bodies in fixture files (bodyFile)"
        case .notRegularFile(_, let kind): "the file is not a regular file (it is \(kind)), so it is not read"
        case .missing: "the file was removed while the catalogs were read"
        case .symbolicLink: "the file is a symbolic link, which is not followed here"
        case .unreadable(_, let reason): "the file cannot be read (\(reason))"
        }
    }

    /// A file on disk whose parse a cache may hold, as it was before it was read.
    struct CachedFile {
        var cache: any CatalogParseCache
        var path: String
        var identity: FileIdentity

        /// What the cache holds for the file, when the bytes read are as large as it was.
        func composition(ofBytes count: Int) -> YAMLComposer.Composition? {
            guard identity.size == Int64(count) else { return nil }
            return cache.composition(forFile: path, identity: identity)
        }

        /// Keeps `composition` when the file is still as it was before it was read.
        func keep(_ composition: YAMLComposer.Composition, ofBytes count: Int) {
            guard identity.size == Int64(count), FileIdentity(path: path) == identity else { return }
            cache.keep(composition, forFile: path, identity: identity)
        }
    }

    /// Reads one catalog file's bytes into a service and its diagnostics (sorted by position).
    static func parse(
        data: Data, fileName: String, file: String, directory: URL?, fileSystem: any CatalogFileSystem, trust: CatalogTrust = .everything,
        cached: CachedFile? = nil, fixtures: FixtureReading = .atLoad
    ) -> ParsedFile {
        // Hashed only when a decision needs it: a copy of a bundled file or `--trust` needs none.
        let contentHash = directory == nil || trust.trustsEverything ? nil : CatalogTrust.contentHash(of: data)
        let isTrusted = trust.trustsEverything || contentHash.map { trust.trusts(data, contentHash: $0, fileName: fileName) } ?? true
        var location = SourceLocation(file: file, line: 1, column: 1)
        let composition: YAMLComposer.Composition
        let wasCached: Bool
        if let kept = cached?.composition(ofBytes: data.count) {
            // Only a file that was UTF-8 and composed was kept.
            composition = kept
            wasCached = true
        } else {
            guard let text = String(validating: data, as: UTF8.self) else {
                let line = firstInvalidUTF8Line(data)
                var parsed = ParsedFile(
                    service: nil, diagnostics: [Diagnostic(file: file, line: line, column: 1, severity: .error, message: "the file is not UTF-8 text")],
                    idLocation: location)
                parsed.wasParsed = true
                return parsed
            }
            do {
                composition = try YAMLComposer.compose(text, markingScalarsContaining: UInt8(ascii: "{"))
            } catch {
                let diagnostic = Diagnostic(file: file, line: error.line, column: error.column, severity: .error, message: error.message)
                var parsed = ParsedFile(service: nil, diagnostics: [diagnostic], idLocation: location)
                parsed.wasParsed = true
                return parsed
            }
            cached?.keep(composition, ofBytes: data.count)
            wasCached = false
        }
        guard let root = composition.root else {
            var parsed = ParsedFile(
                service: nil,
                diagnostics: [Diagnostic(file: file, line: 1, column: 1, severity: .warning, message: "the file is empty, so it describes no service")],
                idLocation: location)
            parsed.wasParsed = !wasCached
            parsed.wasCached = wasCached
            return parsed
        }
        let decoder = CatalogFileDecoder(file: file, fileName: fileName, fileSystem: fileSystem)
        decoder.isTrusted = isTrusted
        decoder.fixtureReading = fixtures
        // A duplicated key makes the file ambiguous: reported where it is, and the file is not loaded.
        for duplicate in composition.duplicates { decoder.report(.error, duplicate.message, line: duplicate.line, column: duplicate.column) }
        let service = decoder.decodeService(root, directory: directory, scalarsWithBraces: composition.markedScalars)
        if case .mapping(let pairs) = root.content, let idNode = pairs.first(where: { $0.key.scalar?.text == "service" })?.value {
            location = SourceLocation(file: file, line: idNode.line, column: idNode.column)
        }
        let diagnostics = decoder.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        var loaded = service
        loaded?.diagnostics = diagnostics
        loaded?.isTrusted = isTrusted
        loaded?.contentHash = contentHash
        var parsed = ParsedFile(service: loaded, diagnostics: diagnostics, idLocation: location)
        parsed.wasParsed = !wasCached
        parsed.wasCached = wasCached
        return parsed
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
