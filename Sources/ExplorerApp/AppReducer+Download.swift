import Catalog
import DispatcherCore
import TerminalKit
import TextSupport

/// Downloads (`d`): the selected endpoint sent with its body written to a file as it arrives,
/// then browsed from that file.
extension AppReducer {
    /// Opens the question of where the body goes, with a name taken from the endpoint.
    static func askWhereToDownload(state: inout AppState) {
        guard let endpoint = state.selectedEndpoint else {
            state.notice = "No endpoint to download."
            return
        }
        state.overlay = .download(DownloadDialog(
            endpoint: endpoint.key, example: state.selectedExample, input: InputState(text: endpoint.download ?? suggestedFileName(for: endpoint))))
    }

    /// The path's last segment when it names a file (`/files/report.pdf` → `report.pdf`), else the
    /// endpoint's id.
    static func suggestedFileName(for endpoint: CatalogEndpoint) -> String {
        let last = endpoint.path.split(separator: "/").last.map(String.init) ?? ""
        let isFileName = last.contains(".") && !last.contains("{{") && !last.hasPrefix(".")
        return isFileName ? last : endpoint.id + ".download"
    }

    /// What replaces "Downloading … to …" when the download ends: where the body went, or why not.
    static func downloadEnded(_ exchange: Exchange) -> String {
        if let file = exchange.response?.downloadedFile {
            let resumed = file.resumedFrom > 0 ? " (continued after \(ByteCount.format(file.resumedFrom)))" : ""
            return "Saved \(ByteCount.format(file.byteCount)) to \(file.path)\(resumed)."
        }
        if let error = exchange.error { return "Not downloaded: \(error.kind.name): \(error.message)" }
        return "Not downloaded: the answer was not a body to save."
    }

    static func typeDownloadPath(_ command: Command, dialog: DownloadDialog, state: inout AppState) -> [AppEffect] {
        var dialog = dialog
        switch command {
        case .cancelInput:
            state.overlay = nil
            state.notice = "Not downloaded."
        case .accept:
            let path = dialog.input.text.trimmed
            guard !path.isEmpty else {
                state.notice = "Give a file to download to."
                return []
            }
            state.overlay = nil
            guard state.selectedEndpoint?.key == dialog.endpoint else {
                state.notice = "\(dialog.endpoint) is no longer selected: not downloaded."
                return []
            }
            state.notice = "Downloading \(dialog.endpoint) to \(path)…"
            return send(state: &state, example: dialog.example, downloadPath: path)
        case .edit(let edit):
            dialog.input.apply(edit)
            state.overlay = .download(dialog)
        default:
            break
        }
        return []
    }
}
