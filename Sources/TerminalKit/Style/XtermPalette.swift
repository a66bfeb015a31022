/// The standard xterm 256-colour palette, used for SVG export and RGB approximation.
package enum XtermPalette {
    /// The 16 ANSI colours as xterm draws them by default.
    static let ansi: [(UInt8, UInt8, UInt8)] = [
        (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
        (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
        (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
        (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
    ]

    /// The six intensities of each axis of the colour cube (indices 16–231).
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The red, green and blue components of a palette entry.
    package static func rgb(of index: UInt8) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = Int(index)
        if index < 16 { return ansi[index] }
        if index < 232 {
            let cube = index - 16
            return (cubeLevels[cube / 36], cubeLevels[(cube / 6) % 6], cubeLevels[cube % 6])
        }
        let grey = UInt8(8 + (index - 232) * 10)
        return (grey, grey, grey)
    }

    /// `#rrggbb` for a palette entry.
    package static func hex(of index: UInt8) -> String { hexStrings[Int(index)] }

    private static let hexStrings: [String] = (0...255).map { index in
        let (r, g, b) = rgb(of: UInt8(index))
        return "#" + hexByte(r) + hexByte(g) + hexByte(b)
    }

    /// The cube or grey entry closest to a 24-bit colour (squared distance; ties pick the lower index).
    package static func nearestIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        func level(_ value: UInt8) -> Int {
            var best = 0
            for (i, candidate) in cubeLevels.enumerated()
            where abs(Int(candidate) - Int(value)) < abs(Int(cubeLevels[best]) - Int(value)) {
                best = i
            }
            return best
        }
        let cube = 16 + 36 * level(red) + 6 * level(green) + level(blue)
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = min(23, max(0, (average - 3) / 10))
        let grey = 232 + greyStep
        return distance(UInt8(grey), red, green, blue) < distance(UInt8(cube), red, green, blue)
            ? UInt8(grey) : UInt8(cube)
    }

    private static func distance(_ index: UInt8, _ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        let (r, g, b) = rgb(of: index)
        let dr = Int(r) - Int(red), dg = Int(g) - Int(green), db = Int(b) - Int(blue)
        return dr * dr + dg * dg + db * db
    }

    private static func hexByte(_ value: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
    }
}
