import Catalog
import CatalogAuthoring
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import StateStore
import SystemSupport
import TerminalKit
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps drafts and run-time values in the state folder, opens a draft's body in `$EDITOR`, and
/// writes drafts into catalog files (only the lines that changed; the file as it was kept beside
/// it as `FILE~`, which `u` puts back) or as new endpoints.
final class EditingEffects: Sendable {
    /// The terminal, left to `$EDITOR` while it runs.
    private let device: any TerminalDevice
    /// Where the explorer's files are kept, `$EDITOR` is read, and catalogs' trust is remembered.
    private let services: ExplorerServices
    /// The catalogs loaded last.
    private let catalog: @Sendable () -> CatalogSet?
    /// Reads the catalogs again after `file` was written over `catalog`.
    private let reload: @Sendable (_ file: String, _ catalog: CatalogSet) -> Void
    /// Drafts and run-time values are written in order, the latest winning, off the UI thread.
    let draftWriter = StateFileKeeper<[String: EndpointEdits]>()
    let valueWriter = StateFileKeeper<[String: String]>()

    init(
        device: any TerminalDevice, services: ExplorerServices, catalog: @escaping @Sendable () -> CatalogSet?,
        reload: @escaping @Sendable (_ file: String, _ catalog: CatalogSet) -> Void
    ) {
        self.device = device
        self.services = services
        self.catalog = catalog
        self.reload = reload
    }

    func perform(_ effect: EditingEffect, _ context: EffectContext) {
        switch effect {
        case .loadDrafts:
            let (drafts, keeper) = (services.drafts, draftWriter)
            context.load { .editing(.draftsLoaded(drafts.map(keeper.load) ?? [:])) }
        case .loadValues:
            let (values, keeper) = (services.values, valueWriter)
            context.load { .editing(.valuesLoaded(values.map(keeper.load) ?? [:])) }
        case .saveDrafts(let drafts):
            guard let file = services.drafts else { return }
            draftWriter.keep(drafts, in: file) { error in context.post(.stateNotSaved("Could not keep the drafts: \(error).")) }
        case .saveValues(let values):
            guard let file = services.values else { return }
            valueWriter.keep(values, in: file) { error in context.post(.stateNotSaved("Could not keep the run-time values: \(error).")) }
        case .editBodyInEditor(let key, let text, let isJSON):
            editBody(key: key, text: text, isJSON: isJSON, context)
        case .writeDraft(let key, let edits):
            writeDraft(key: key, edits: edits, context)
        case .restoreCatalogFile(let key):
            restoreCatalogFile(key: key, context)
        case .saveDraftAsEndpoint(let key, let edits, let id):
            saveDraftAsEndpoint(key: key, edits: edits, id: id, context)
        }
    }

    /// Opens a draft's body in `$EDITOR` (vi by default) on a temporary file, leaving the terminal
    /// to it meanwhile, and reports the text that came back (nil when unchanged).
    private func editBody(key: DraftKey, text: String, isJSON: Bool, _ context: EffectContext) {
        let device = self.device
        let environment = services.environment
        let command = environment["VISUAL"].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 }
            ?? environment["EDITOR"].flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 } ?? "vi"
        context.load {
            let path: String
            do throws(SystemError) {
                path = try TemporaryFile.create(Data(text.utf8), prefix: "apiexplorer-draft-", suffix: isJSON ? ".json" : ".txt")
            } catch {
                return .editing(.bodyEdited(key: key, text: nil, message: "Could not open the body: \(error)."))
            }
            defer { unlink(path) }
            do {
                let status = try await device.suspend { () throws -> Int32 in
                    // Through the shell so `$EDITOR` may carry options (`code --wait`); the path is $1.
                    try ChildProcess.runInTerminal("/bin/sh", ["-c", "\(command) \"$1\"", "sh", path], environment: environment)
                }
                guard status == 0 else {
                    return .editing(.bodyEdited(key: key, text: nil, message: "\(command) exited with status \(status): the body was not changed."))
                }
            } catch {
                return .editing(.bodyEdited(key: key, text: nil, message: "Could not run \(command): \(error)."))
            }
            guard let data = FileContents.read(atPath: path, atMost: Environment.defaultMaximumBodySize) else {
                return .editing(.bodyEdited(key: key, text: nil, message: "The edited body could not be read back from \(path)."))
            }
            var edited = String(decoding: data, as: UTF8.self)
            // Editors end files with a newline the person did not type.
            if edited.hasSuffix("\n"), !text.hasSuffix("\n") { edited.removeLast() }
            return .editing(.bodyEdited(key: key, text: edited == text ? nil : edited, message: edited == text ? "The body was not changed." : nil))
        }
    }

    /// Writes a draft into its catalog file, changing only the lines that changed, then reads the
    /// catalogs again so the explorer follows the file at once (the watcher's later read is a no-op).
    /// The file as it was is kept beside it as `FILE~` (as editors keep theirs; the watcher ignores
    /// it): `restoreCatalogFile` puts it back.
    private func writeDraft(key: DraftKey, edits: EndpointEdits, _ context: EffectContext) {
        updateCatalog(of: key, keepingBackup: true, context, done: { .editing(.draftWritten(key: key, error: $0)) }) { service throws(AuthoringError) in
            try CatalogUpdate.writing(edits, endpoint: key.endpoint.endpoint, of: service)
        }
    }

    /// Puts the draft's catalog file back as `writeDraft` found it, then reads the catalogs again.
    private func restoreCatalogFile(key: DraftKey, _ context: EffectContext) {
        context.load {
            guard let catalog = self.catalog(), let service = catalog.service(key.endpoint.service),
                let directory = service.directory
            else {
                return .editing(.catalogFileRestored(key: key, error: "\(key.endpoint.service) is not in the loaded catalogs"))
            }
            let file = directory.appendingPathComponent(String(service.file.split(separator: "/").last ?? Substring(service.file)))
            let backup = Self.backup(of: file)
            guard FileManager.default.fileExists(atPath: backup.path) else {
                return .editing(.catalogFileRestored(key: key, error: "\(backup.lastPathComponent) is gone, so \(service.file) stays as written"))
            }
            guard rename(backup.path, file.path) == 0 else {
                return .editing(.catalogFileRestored(key: key, error: "\(backup.path) could not be moved back over \(file.lastPathComponent)"))
            }
            self.reload(service.file, catalog)
            return .editing(.catalogFileRestored(key: key, error: nil))
        }
    }

    /// Where a catalog file's previous text is kept: `FILE~` beside it.
    static func backup(of file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + "~")
    }

    /// Adds the draft to its catalog file as a new endpoint `id` (the original is left as it was).
    private func saveDraftAsEndpoint(key: DraftKey, edits: EndpointEdits, id: String, _ context: EffectContext) {
        updateCatalog(of: key, context, done: { .editing(.draftSavedAsEndpoint(key: key, id: id, error: $0)) }) { service throws(AuthoringError) in
            try CatalogUpdate.copying(key.endpoint.endpoint, of: service, as: id, with: edits)
        }
    }

    /// Makes, commits and installs one catalog update off the UI thread; `done` gets the error, if any.
    private func updateCatalog(
        of key: DraftKey,
        keepingBackup: Bool = false,
        _ context: EffectContext,
        done: @escaping @Sendable (String?) -> AppAction,
        _ make: @escaping @Sendable (Service) throws(AuthoringError) -> CatalogUpdate
    ) {
        context.load {
            guard let catalog = self.catalog(), let service = catalog.service(key.endpoint.service) else {
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
            self.reload(service.file, catalog)
            return done(nil)
        }
    }
}
