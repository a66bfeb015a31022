import Catalog
import CatalogAuthoring
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import SystemSupport
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EffectRunner {
    /// Opens a draft's body in `$EDITOR` (vi by default) on a temporary file, leaving the terminal
    /// to it meanwhile, and reports the text that came back (nil when unchanged).
    func editBody(key: DraftKey, text: String, isJSON: Bool) {
        let device = self.device
        let environment = self.environment
        let command = environment["VISUAL"].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 }
            ?? environment["EDITOR"].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 } ?? "vi"
        load {
            let path: String
            do throws(SystemError) {
                path = try TemporaryFile.create(Data(text.utf8), prefix: "apiexplorer-draft-", suffix: isJSON ? ".json" : ".txt")
            } catch {
                return .bodyEdited(key: key, text: nil, message: "Could not open the body: \(error).")
            }
            defer { unlink(path) }
            do {
                let status = try await device.suspend { () throws -> Int32 in
                    // Through the shell so `$EDITOR` may carry options (`code --wait`); the path is $1.
                    try ChildProcess.runInTerminal("/bin/sh", ["-c", "\(command) \"$1\"", "sh", path], environment: environment)
                }
                guard status == 0 else {
                    return .bodyEdited(key: key, text: nil, message: "\(command) exited with status \(status): the body was not changed.")
                }
            } catch {
                return .bodyEdited(key: key, text: nil, message: "Could not run \(command): \(error).")
            }
            guard let data = FileContents.read(atPath: path, atMost: Environment.defaultMaximumBodySize) else {
                return .bodyEdited(key: key, text: nil, message: "The edited body could not be read back from \(path).")
            }
            var edited = String(decoding: data, as: UTF8.self)
            // Editors end files with a newline the person did not type.
            if edited.hasSuffix("\n"), !text.hasSuffix("\n") { edited.removeLast() }
            return .bodyEdited(key: key, text: edited == text ? nil : edited, message: edited == text ? "The body was not changed." : nil)
        }
    }
}

extension EffectRunner {
    /// Writes a draft into its catalog file, changing only the lines that changed, then reads the
    /// catalogs again so the explorer follows the file at once (the watcher's later read is a no-op).
    /// The file as it was is kept beside it as `FILE~` (as editors keep theirs; the watcher ignores
    /// it): `restoreCatalogFile` puts it back.
    func writeDraft(key: DraftKey, edits: EndpointEdits) {
        updateCatalog(of: key, keepingBackup: true, done: { .draftWritten(key: key, error: $0) }) { service throws(AuthoringError) in
            try CatalogUpdate.writing(edits, endpoint: key.endpoint.endpoint, of: service)
        }
    }

    /// Puts the draft's catalog file back as `writeDraft` found it, then reads the catalogs again.
    func restoreCatalogFile(key: DraftKey) {
        load {
            guard let catalog = self.loadedCatalog.withLock({ $0 }), let service = catalog.service(key.endpoint.service),
                let directory = service.directory
            else {
                return .catalogFileRestored(key: key, error: "\(key.endpoint.service) is not in the loaded catalogs")
            }
            let file = directory.appendingPathComponent(String(service.file.split(separator: "/").last ?? Substring(service.file)))
            let backup = Self.backup(of: file)
            guard FileManager.default.fileExists(atPath: backup.path) else {
                return .catalogFileRestored(key: key, error: "\(backup.lastPathComponent) is gone, so \(service.file) stays as written")
            }
            guard rename(backup.path, file.path) == 0 else {
                return .catalogFileRestored(key: key, error: "\(backup.path) could not be moved back over \(file.lastPathComponent)")
            }
            self.reloadAfterWriting(service.file, over: catalog)
            return .catalogFileRestored(key: key, error: nil)
        }
    }

    /// Where a catalog file's previous text is kept: `FILE~` beside it.
    static func backup(of file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + "~")
    }

    /// Adds the draft to its catalog file as a new endpoint `id` (the original is left as it was).
    func saveDraftAsEndpoint(key: DraftKey, edits: EndpointEdits, id: String) {
        updateCatalog(of: key, done: { .draftSavedAsEndpoint(key: key, id: id, error: $0) }) { service throws(AuthoringError) in
            try CatalogUpdate.copying(key.endpoint.endpoint, of: service, as: id, with: edits)
        }
    }

    /// Makes, commits and installs one catalog update off the UI thread; `done` gets the error, if any.
    private func updateCatalog(
        of key: DraftKey,
        keepingBackup: Bool = false,
        done: @escaping @Sendable (String?) -> AppAction,
        _ make: @escaping @Sendable (Service) throws(AuthoringError) -> CatalogUpdate
    ) {
        load {
            guard let catalog = self.loadedCatalog.withLock({ $0 }), let service = catalog.service(key.endpoint.service) else {
                return done("\(key.endpoint.service) is not in the loaded catalogs")
            }
            do throws(AuthoringError) {
                let update = try make(service)
                if keepingBackup {
                    let file = update.directory.appendingPathComponent(update.fileName)
                    do throws(SystemError) {
                        if let previous = FileContents.read(atPath: file.path, atMost: CatalogLoader.maximumFileSize) {
                            try AtomicFile.write(previous, to: Self.backup(of: file), permissions: FileStatus.permissions(file.path) ?? 0o644)
                        }
                    } catch {
                        throw AuthoringError(error)
                    }
                }
                try update.commit(keepingTrustOf: service, in: self.services.trust)
            } catch {
                return done(error.description)
            }
            self.reloadAfterWriting(service.file, over: catalog)
            return done(nil)
        }
    }

    /// Reads the catalogs again after the explorer wrote `file`, so it follows at once (the
    /// watcher's later read finds nothing new); every file is read: `file` is as shown, not a watcher path.
    func reloadAfterWriting(_ file: String, over catalog: CatalogSet) {
        guard let reload = services.reloadCatalog else { return }
        let (reloaded, secrets) = reload(catalog, nil)
        install(reloaded, secrets: secrets)
        inbox.post(.catalogReloaded(reloaded, secrets, changed: [file]))
    }
}
