import TerminalKit
import Testing
import TestTraits

/// xterm's mouse reports as the ncurses backend reads them (SGR, mode 1006; the older three-byte form).
@Suite(.offPool) struct MouseReportTests {
    @Test func sgrReportsBecomePressesMotionReleasesAndTheWheel() {
        #expect(MouseReport.sgr("0;50;13", released: false) == MouseEvent(.press(.left), at: Position(x: 49, y: 12)))
        #expect(MouseReport.sgr("2;1;1", released: false) == MouseEvent(.press(.right), at: Position(x: 0, y: 0)))
        // Bit 32: the pointer moved with the button held.
        #expect(MouseReport.sgr("32;40;13", released: false) == MouseEvent(.motion, at: Position(x: 39, y: 12)))
        #expect(MouseReport.sgr("0;30;15", released: true) == MouseEvent(.release, at: Position(x: 29, y: 14)))
        #expect(MouseReport.sgr("64;3;4", released: false) == MouseEvent(.wheelUp, at: Position(x: 2, y: 3)))
        #expect(MouseReport.sgr("65;3;4", released: false) == MouseEvent(.wheelDown, at: Position(x: 2, y: 3)))
        // Shift 4, Alt 8, Ctrl 16.
        #expect(MouseReport.sgr("28;5;5", released: false) == MouseEvent(.press(.left), at: Position(x: 4, y: 4), modifiers: [.shift, .alt, .ctrl]))
        // Columns past 223, which the three-byte form cannot say.
        #expect(MouseReport.sgr("0;300;2", released: false)?.position == Position(x: 299, y: 1))
    }

    @Test func whatTheAppDoesNotUseAndMalformedReportsAreNothing() {
        for parameters in ["35;10;10", "66;1;1", "128;1;1", "0;0;5", "0;5", "0;5;5;5", "a;1;1", "", "-1;2;2"] {
            #expect(MouseReport.sgr(parameters, released: false) == nil, "\(parameters)")
        }
    }

    @Test func theThreeByteFormSaysReleaseWithoutTheButton() {
        func bytes(_ code: Int, _ x: Int, _ y: Int) -> [UInt32] { [code, x, y].map { UInt32($0 + 32) } }
        #expect(MouseReport.x10(bytes(0, 10, 5)) == MouseEvent(.press(.left), at: Position(x: 9, y: 4)))
        #expect(MouseReport.x10(bytes(3, 10, 5)) == MouseEvent(.release, at: Position(x: 9, y: 4)))
        #expect(MouseReport.x10(bytes(32, 11, 5)) == MouseEvent(.motion, at: Position(x: 10, y: 4)))
        #expect(MouseReport.x10(bytes(65, 1, 1)) == MouseEvent(.wheelDown, at: Position(x: 0, y: 0)))
        #expect(MouseReport.x10(bytes(35, 1, 1)) == nil, "motion with no button held")
        #expect(MouseReport.x10([40, 40]) == nil)
    }
}
