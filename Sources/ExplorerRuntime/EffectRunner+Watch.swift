import Catalog
import ExplorerApp
import Sessions
import SystemSupport

/// The catalog folder watched while the explorer runs: changed files are read again and the
/// sessions renewed.
extension EffectRunner {
    /// Watches the catalog folder: each batch of changes reads the changed catalog files again
    /// (every file when a fixture, `.env` or a folder changed), renews the sessions and posts
    /// `.catalogReloaded`. Other files (an atomic save's temporary file, notes) are ignored.
    func watchCatalogs() {
        guard services.watchesCatalogs, let reload = services.reloadCatalog, let folder = catalogs.catalog.withLock({ $0 })?.source.directory else { return }
        let watcher: FileWatcher
        do throws(SystemError) {
            watcher = try FileWatcher(directory: folder.path)
        } catch {
            inbox.post(.stateNotSaved("The catalogs are not watched for changes: \(error)."))
            return
        }
        let inbox = self.inbox
        let task = Task.detached {
            for await batch in watcher.changes {
                // Catalog files are read again one by one; fixtures (in folders) and `.env` may be
                // used by any catalog, so they read everything again; other files do not matter.
                let catalogFiles = batch.filter(CatalogLoader.isCatalogFile)
                let others = batch.filter { $0.contains("/") || $0 == ".env" }
                guard !catalogFiles.isEmpty || !others.isEmpty, let previous = self.catalogs.catalog.withLock({ $0 }) else { continue }
                let changed: Set<String>? = others.isEmpty ? catalogFiles : nil
                let paths = catalogFiles.union(others.filter { !($0.split(separator: "/").last ?? "").hasPrefix(".") || $0 == ".env" })
                let (catalog, secrets) = reload(previous, changed)
                self.catalogs.install(catalog, secrets: secrets)
                inbox.post(.catalogReloaded(catalog, secrets, changed: paths.sorted()))
            }
        }
        watching.withLock { watching in
            watching?.watcher.stop()
            watching = (watcher, task)
        }
    }

    /// Stops watching the catalog folder.
    func stopWatching() async {
        let current = watching.withLock { watching in
            defer { watching = nil }
            return watching
        }
        current?.watcher.stop()
        await current?.task.value
    }
}
