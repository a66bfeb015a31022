import Testing
@testable import TerminalKit
import TestTraits

@Suite("Layout", .offPool)
struct LayoutTests {
    static let constraintSets: [[Constraint]] = [
        [.length(3), .fill(1), .length(1)],
        [.percentage(30), .percentage(70)],
        [.percentage(33), .percentage(33), .percentage(34)],
        [.min(5), .max(10), .fill(2), .fill(1)],
        [.length(100), .length(100)],
        [.max(4)],
        [.min(3), .min(3)],
        [.fill(0), .fill(0), .fill(0)],
        [.length(-5), .percentage(250), .fill(-1)],
        [.length(Int.max), .fill(Int.max)],
    ]

    @Test("Segments always tile the area exactly", arguments: constraintSets)
    func exact(constraints: [Constraint]) {
        for total in [0, 1, 2, 3, 7, 10, 33, 80, 101, 1000] {
            let area = Rect(x: 4, y: 2, width: total, height: 5)
            let parts = Layout.horizontal(constraints).split(area)
            #expect(parts.count == constraints.count)
            #expect(parts.reduce(0) { $0 + $1.width } == total, "total \(total)")
            var x = area.x
            for part in parts {
                #expect(part.x == x && part.y == area.y && part.height == area.height && part.width >= 0)
                x += part.width
            }
            let vertical = Layout.vertical(constraints).split(Rect(x: 0, y: 0, width: 3, height: total))
            #expect(vertical.reduce(0) { $0 + $1.height } == total)
        }
    }

    @Test("Nominal sizes when there is room")
    func nominal() {
        #expect(Layout.sizes(for: [.length(3), .fill(1), .length(1)], total: 20) == [3, 16, 1])
        #expect(Layout.sizes(for: [.percentage(25), .percentage(75)], total: 10) == [2, 8], "floors, the leftover cell goes to the last")
        #expect(Layout.sizes(for: [.fill(1), .fill(2)], total: 10) == [3, 7])
        #expect(Layout.sizes(for: [.fill(1), .fill(1), .fill(1)], total: 10) == [4, 3, 3])
        #expect(Layout.sizes(for: [.max(4), .min(2)], total: 10) == [4, 6])
        #expect(Layout.sizes(for: [.length(2), .length(3)], total: 10) == [2, 8], "leftover goes to the last")
        #expect(Layout.sizes(for: [], total: 10) == [])
    }

    @Test("Shrinking takes from percentages first, minima last")
    func shrinking() {
        #expect(Layout.sizes(for: [.min(4), .percentage(50), .length(3)], total: 8) == [4, 1, 3])
        #expect(Layout.sizes(for: [.min(4), .length(3)], total: 5) == [4, 1])
        #expect(Layout.sizes(for: [.min(4), .min(4)], total: 5) == [2, 3])
        #expect(Layout.sizes(for: [.length(3), .fill(1), .length(1)], total: 1) == [1, 0, 0])
        #expect(Layout.sizes(for: [.length(3), .length(3)], total: 0) == [0, 0])
    }

    @Test("Centred rectangles fit inside")
    func centered() {
        let screen = Rect(x: 0, y: 0, width: 80, height: 24)
        #expect(Layout.centered(width: 40, height: 10, in: screen) == Rect(x: 20, y: 7, width: 40, height: 10))
        #expect(Layout.centered(width: 200, height: 200, in: screen) == screen)
        #expect(Layout.centered(width: 5, height: 5, in: .zero) == .zero)
        #expect(Layout.centered(widthPercent: 50, heightPercent: 50, in: screen) == Rect(x: 20, y: 6, width: 40, height: 12))
    }
}

@Suite("Rect", .offPool)
struct RectTests {
    @Test("Inset never goes negative")
    func inset() {
        let rect = Rect(x: 2, y: 3, width: 10, height: 4)
        #expect(rect.inset(by: 1) == Rect(x: 3, y: 4, width: 8, height: 2))
        #expect(rect.inset(by: 3).isEmpty)
        #expect(rect.inset(by: 50).width == 0 && rect.inset(by: 50).height == 0)
        #expect(Rect.zero.inset(by: 1) == .zero)
        #expect(rect.inset(top: 1, left: 2) == Rect(x: 4, y: 4, width: 8, height: 3))
    }

    @Test("Intersection, containment and clamping")
    func intersection() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10), b = Rect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.intersection(Rect(x: 20, y: 20, width: 2, height: 2)).isEmpty)
        #expect(!a.intersects(Rect(x: 10, y: 0, width: 1, height: 1)))
        #expect(a.contains(Position(x: 9, y: 9)) && !a.contains(Position(x: 10, y: 9)))
        #expect(Rect(x: 8, y: 8, width: 5, height: 5).clamped(to: a) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(Rect(x: -3, y: 2, width: 20, height: 1).clamped(to: a) == Rect(x: 0, y: 2, width: 10, height: 1))
        #expect(Rect(x: 0, y: 0, width: -4, height: 3).width == 0)
    }
}
