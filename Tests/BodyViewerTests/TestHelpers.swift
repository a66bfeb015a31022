import Foundation
import Testing

@testable import BodyViewer

/// Builds a document from text synchronously.
func document(_ text: String, contentType: String? = "application/json") -> BodyDocument {
    BodyDocument(data: Data(text.utf8), contentType: contentType)
}

/// A state with a viewport large enough to show `document` whole, without line numbers.
func wideState(height: Int = 200, width: Int = 200, lineNumbers: Bool = false) -> BodyViewState {
    BodyViewState(viewportHeight: height, viewportWidth: width, showsLineNumbers: lineNumbers)
}

/// The rendered rows as text, one per line, trailing blanks trimmed.
func screen(_ document: BodyDocument, _ state: BodyViewState) -> String {
    document.renderVisible(state).map { row in
        var text = row.text
        while text.last == " " { text.removeLast() }
        return text
    }.joined(separator: "\n")
}

/// Every line of a document, unfolded.
func allLines(_ document: BodyDocument) -> String {
    (0..<document.lineCount).map { document.plainText(ofLine: $0) }.joined(separator: "\n")
}
