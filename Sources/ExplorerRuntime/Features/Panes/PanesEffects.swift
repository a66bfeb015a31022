import ExplorerApp
import StateStore
import SystemSupport

/// Reads and keeps the sidebar's width (`panes.json` in the state folder).
struct PanesEffects: Sendable {
    /// Where the width is kept; nil keeps none.
    let file: PanesFile?
    /// Saves collapse: a burst of width keys costs one write, the last one winning.
    let writer = LatestValueWriter<Int>()

    func perform(_ effect: PanesEffect, _ context: EffectContext) {
        switch effect {
        case .load:
            context.load { [file] in .panes(.loaded(listWidth: file?.load().listWidth)) }
        case .save(let width):
            guard let file else { return }
            writer.save(width) { width in
                do throws(SystemError) {
                    try file.update { $0.listWidth = width }
                } catch {
                    context.post(.stateNotSaved("The list's width was not kept: \(error)."))
                }
            }
        }
    }
}
