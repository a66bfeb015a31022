import DispatcherCore
import TerminalKit

/// How a secret being typed is shown: one fixed mask, whatever its length, so a look at the
/// screen (or a recording of it) tells neither the value nor how long it is.
enum MaskedInput {
    /// `input` with everything from character `start` on shown as `Redactor.mask` (nothing when
    /// that part is empty); the cursor stays where it is before `start`, else after the mask.
    static func shown(_ input: InputState, maskingFrom start: Int = 0) -> InputState {
        let start = min(max(0, start), input.characters.count)
        let kept = String(input.characters[..<start])
        guard input.characters.count > start else { return InputState(text: kept, cursor: input.cursor) }
        let text = kept + Redactor.mask
        return InputState(text: text, cursor: input.cursor <= start ? input.cursor : text.count)
    }

    /// A header row being typed (`Name: value`): its value is masked when the name is a secret's
    /// (`Authorization`, `X-API-Key` …); other rows are shown as typed.
    static func headerRow(_ input: InputState) -> InputState {
        guard let colon = input.characters.firstIndex(of: ":") else { return input }
        let name = String(input.characters[..<colon])
        guard Redactor.standard.isSensitive(name: name) else { return input }
        var start = colon + 1
        while start < input.characters.count, input.characters[start] == " " { start += 1 }
        // An auth scheme stays visible, as it does everywhere else (`Bearer ••••`).
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization",
            let space = input.characters[start...].firstIndex(of: " "), space > start
        {
            start = space + 1
        }
        return shown(input, maskingFrom: start)
    }
}
