import DispatcherCore
import Testing
import TestTraits

@Suite(.offPool) struct MediaTypeTests {
    @Test func aFilesMediaTypeComesFromItsExtension() {
        #expect(MediaType.forFile("fixtures/pet.json") == "application/json")
        #expect(MediaType.forFile("photo.PNG") == "image/png", "extensions in any case")
        #expect(MediaType.forFile("a.b/archive.tar.gz") == "application/gzip", "the last extension of the last component")
        #expect(MediaType.forFile("fixtures.json/notes") == nil, "a dot in a folder's name is not the file's extension")
        #expect(MediaType.forFile("fixtures/.env") == nil && MediaType.forFile(".json") == nil, "a hidden file has no extension")
        #expect(MediaType.forFile("README") == nil && MediaType.forFile("") == nil)
        #expect(MediaType.forFile("data.unknown") == nil)
        #expect(MediaType.forFileOrBinary("data.unknown") == "application/octet-stream")
    }
}
