import Foundation
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// A multipart upload in the history and in HAR: the fields as `postData.params` (text masked,
    /// files by name), the history describing the body, never holding the file's bytes.
    @Suite(.offPool) struct HARMultipartTests {
        @Test func aMultipartUploadIsExportedAsParams() async throws {
            let folder = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try folder.write("photo.png", "PNGDATA")
            try folder.write("a.yaml", """
                service: a
                environments:
                  local: { baseURL: "http://127.0.0.1:9/a" }
                endpoints:
                  upload:
                    method: POST
                    path: /up
                    multipart:
                      - { name: title, value: "token {{secret.API_KEY}}" }
                      - { name: photo, file: photo.png }
                    stub: { status: 201 }
                """)
            let call = try await CLI.run(["call", "a/upload", "--stub", "--catalog", folder.path], state: state, environment: ["APIEXPLORER_SECRET_API_KEY": "canary-key-77"])
            #expect(call.status == 0, "\(call.errors)")
            let har = try await CLI.run(["export", "har"], state: state)
            let document = try jsonObject(har.stdout)
            let entries = try #require((document["log"] as? [String: Any])?["entries"] as? [[String: Any]])
            let postData = try #require((entries.last?["request"] as? [String: Any])?["postData"] as? [String: Any])
            #expect((postData["mimeType"] as? String)?.hasPrefix("multipart/form-data; boundary=") == true)
            let params = try #require(postData["params"] as? [[String: String]])
            #expect(params == [["name": "title", "value": "token ••••"], ["name": "photo", "fileName": "photo.png", "contentType": "image/png"]])
            #expect(!har.output.contains("canary-key-77") && !har.output.contains("PNGDATA"))
            let history = try await CLI.run(["history", "--json"], state: state)
            #expect(history.output.contains("<multipart/form-data: title=token ••••, photo=@photo.png (7 B)>"), "\(history.output)")
            #expect(!history.output.contains("canary-key-77") && !history.output.contains("PNGDATA"))
        }
    }
}
