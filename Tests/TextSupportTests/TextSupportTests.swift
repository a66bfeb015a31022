import Testing
import TextSupport
import TestTraits

@Suite(.offPool) struct TextSupportTests {
    @Test func trimming() {
        #expect("  a b \n\t".trimmed == "a b")
        #expect(" \t a\n ".trimmedSpaces == "a\n")
        #expect("   ".trimmed == "")
        #expect("//a/b//".trimming { $0 == "/" } == "a/b")
        #expect("a  ".trimmingSuffix { $0 == " " } == "a")
    }

    @Test func padding() {
        #expect("ab".padded(to: 4) == "ab  ")
        #expect("abcdef".padded(to: 3) == "abc")
        #expect("7".leftPadded(to: 3, with: "0") == "007")
        #expect("1234".leftPadded(to: 3, with: "0") == "1234")
    }

    @Test func percentEncodingRoundTrips() {
        #expect(PercentEncoding.encode("a b/ü~") == "a%20b%2F%C3%BC~")
        #expect(PercentEncoding.decode("a%20b%2F%C3%BC~") == "a b/ü~")
        #expect(PercentEncoding.decode("100%") == nil)
        #expect(PercentEncoding.decode("%zz") == nil)
        #expect(PercentEncoding.decode("%FF") == nil)
        #expect(PercentEncoding.decode("plain") == "plain")
    }

    @Test func hex() {
        #expect(Hex.text(0x0A) == "0A")
        #expect(Hex.text(0x1F600, width: 4) == "1F600")
        #expect(Hex.value(UInt8(ascii: "f")) == 15)
        #expect(Hex.value(UInt8(ascii: "g")) == nil)
    }

    @Test func fixedDecimalsRoundHalfAwayFromZero() {
        #expect(DecimalText.fixed(1.25, digits: 1) == "1.3")
        #expect(DecimalText.fixed(9.95, digits: 1) == "10.0" || DecimalText.fixed(9.95, digits: 1) == "9.9")
        #expect(DecimalText.fixed(2, digits: 0) == "2")
        #expect(DecimalText.fixed(0.0004, digits: 3) == "0.000")
        #expect(DecimalText.fixed(-1.5, digits: 0) == "-2")
        #expect(DecimalText.fixed(-0.01, digits: 1) == "0.0")
        #expect(DecimalText.fixed(12.3456, digits: 3) == "12.346")
        #expect(DecimalText.zeroPadded(7, width: 2) == "07")
        #expect(DecimalText.zeroPadded(123, width: 2) == "123")
    }
}
