extension StringProtocol {
    /// The text cut or padded with `pad` at the end to exactly `length` characters.
    package func padded(to length: Int, with pad: Character = " ") -> String {
        if count >= length { return String(prefix(length)) }
        return String(self) + String(repeating: pad, count: length - count)
    }

    /// The text padded with `pad` at the start to at least `length` characters.
    package func leftPadded(to length: Int, with pad: Character = " ") -> String {
        count >= length ? String(self) : String(repeating: pad, count: length - count) + self
    }
}
