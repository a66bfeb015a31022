import JSONSupport
import TestTraits
import Testing

@testable import CatalogAuthoring

/// OpenAPI 3.0.3's table of style values (§4.7.12.4.1, "Style Examples"): `color` as the string
/// `blue`, the array `["blue", "black", "brown"]` and the object `{"R": 100, "G": 200, "B": 150}`.
@Suite(.offPool) struct ParameterStyleTests {
    static let string: JSONValue = "blue"
    static let array: JSONValue = ["blue", "black", "brown"]
    static let object: JSONValue = ["R": 100, "G": 200, "B": 150]

    func query(_ value: JSONValue, _ style: String, _ explode: Bool) -> String {
        ParameterStyle.pairs(name: "color", value: value, style: style, explode: explode).map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    @Test func queryStylesAsTheSpecificationShowsThem() {
        #expect(query(Self.string, "form", false) == "color=blue")
        #expect(query(Self.array, "form", false) == "color=blue,black,brown")
        #expect(query(Self.array, "form", true) == "color=blue&color=black&color=brown")
        #expect(query(Self.object, "form", false) == "color=R,100,G,200,B,150")
        #expect(query(Self.object, "form", true) == "R=100&G=200&B=150")
        #expect(query(Self.array, "spaceDelimited", false) == "color=blue black brown")
        #expect(query(Self.object, "spaceDelimited", false) == "color=R 100 G 200 B 150")
        #expect(query(Self.array, "pipeDelimited", false) == "color=blue|black|brown")
        #expect(query(Self.object, "pipeDelimited", false) == "color=R|100|G|200|B|150")
        #expect(query(Self.object, "deepObject", true) == "color[R]=100&color[G]=200&color[B]=150")
        #expect(query(["a": ["b": 1]], "deepObject", true) == "color[a][b]=1", "nested objects nest their names")
    }

    @Test func pathAndHeaderStylesAsTheSpecificationShowsThem() {
        func text(_ value: JSONValue, _ style: String, _ explode: Bool) -> String {
            ParameterStyle.text(name: "color", value: value, style: style, explode: explode)
        }
        #expect(text(Self.array, "simple", false) == "blue,black,brown")
        #expect(text(Self.object, "simple", false) == "R,100,G,200,B,150")
        #expect(text(Self.object, "simple", true) == "R=100,G=200,B=150")
        #expect(text(Self.string, "label", false) == ".blue")
        #expect(text(Self.array, "label", true) == ".blue.black.brown")
        #expect(text(Self.string, "matrix", false) == ";color=blue")
        #expect(text(Self.array, "matrix", false) == ";color=blue,black,brown")
        #expect(text(Self.array, "matrix", true) == ";color=blue;color=black;color=brown")
        #expect(text(Self.object, "matrix", true) == ";R=100;G=200;B=150")
    }

    @Test func explodeDefaultsToTrueForFormOnly() {
        #expect(ParameterStyle.explode(nil, style: "form"))
        #expect(!ParameterStyle.explode(nil, style: "simple"))
        #expect(!ParameterStyle.explode(.bool(false), style: "form"))
        #expect(ParameterStyle.defaultStyle(in: "query") == "form" && ParameterStyle.defaultStyle(in: "path") == "simple")
    }
}
