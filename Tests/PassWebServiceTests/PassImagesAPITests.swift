import Foundation
import Hummingbird
import HummingbirdTesting
import PassBundle
import PassModel
import Testing
import TesseraTestSupport

/// A pass's own images in its data document, through the issuer API: they replace the template's files of the same
/// name in that pass's bundle only, are checked like template images, and a pass whose style does not show one is
/// refused with nothing stored.
@Suite("Issuer API: images of a pass's own")
struct PassImagesAPITests {
    /// A PNG of the given size, padded to at least `padding` bytes (the validator reads the header; the padding makes
    /// a body larger than the API's general limit).
    static func png(width: Int, height: Int, padding: Int = 0, note: String = "x") -> Data {
        TestPNG.make(width: width, height: height, comment: note, padding: padding)
    }

    private static func create(_ client: LiveTestClient, template: String, images: [String: String],
                               serialNumber: String? = nil) async throws -> LiveTestClient.Response
    {
        var data: [String: Any] = ["images": images]
        if let serialNumber { data["serialNumber"] = serialNumber }
        let body = try JSONSerialization.data(withJSONObject: ["template": template, "data": data])
        return try await client.execute(uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                                        body: ByteBuffer(bytes: body))
    }

    @Test("a holder's thumbnail replaces the template's in that pass only, and a change can remove it again")
    func thumbnailOfItsOwn() async throws {
        let fixture = try WebServiceFixture()
        let photo = Self.png(width: 90, height: 90, padding: 200_000, note: "holder photo")
        try await fixture.withClient { client in
            // Larger than the API's general 64 KiB body limit: create and change bodies take a pass with its images.
            let created = try await Self.create(client, template: "generic",
                                                images: ["thumbnail.png": photo.base64EncodedString()])
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let type = try #require(created.body.json["passTypeIdentifier"] as? String)
            let serial = try #require(created.body.json["serialNumber"] as? String)
            let path = "/wallet/api/v1/passes/\(type)/\(serial)"
            let bundle = try await client.execute(uri: "\(path)/pkpass", method: .get, headers: .admin)
            let archive = try PassArchive(data: bundle.body.data)
            #expect(archive.files["thumbnail.png"] == photo)
            let manifest = try #require(archive.files["manifest.json"]).jsonObject
            #expect(manifest["thumbnail.png"] as? String == archive.hashes["thumbnail.png"])
            #expect(manifest["thumbnail.png"] != nil)

            // Another pass of the template keeps the template's own thumbnail.
            let other = try await client.execute(uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                                                 body: .json(#"{"template":"generic","data":{}}"#))
            let otherSerial = try #require(other.body.json["serialNumber"] as? String)
            let otherBundle = try await client.execute(uri: "/wallet/api/v1/passes/\(type)/\(otherSerial)/pkpass",
                                                       method: .get, headers: .admin)
            let template = try Data(contentsOf: Subprocess.repositoryRoot
                .appendingPathComponent("PassTemplates/generic/thumbnail.png"))
            #expect(try PassArchive(data: otherBundle.body.data).files["thumbnail.png"] == template)

            // The console's picture draws the pass's own thumbnail (a transparent one here), not the template's.
            let withPhoto = try await client.execute(uri: "\(path)/preview?side=front", method: .get, headers: .admin)
            #expect(withPhoto.status == .ok)

            // `null` removes the pass's image: the template's is back.
            let removed = try await client.execute(uri: path, method: .patch, headers: .admin,
                                                   body: .json(#"{"data":{"images":{"thumbnail.png":null}}}"#))
            #expect(removed.status == .ok, "\(String(buffer: removed.body))")
            #expect((removed.body.json["data"] as? [String: Any])?["images"] == nil)
            let after = try await client.execute(uri: "\(path)/pkpass", method: .get, headers: .admin)
            #expect(try PassArchive(data: after.body.data).files["thumbnail.png"] == template)
            let withTemplates = try await client.execute(uri: "\(path)/preview?side=front", method: .get, headers: .admin)
            #expect(withTemplates.status == .ok && withTemplates.body != withPhoto.body, "the same picture with either thumbnail")
        }
    }

    @Test("images a style does not show, names Wallet does not use, bytes that are not base64 or not a PNG: 422 naming the image, nothing stored")
    func refusedImages() async throws {
        let fixture = try WebServiceFixture()
        let strip = Self.png(width: 375, height: 123).base64EncodedString()
        try await fixture.withClient { client in
            let cases: [(template: String, images: [String: String], expected: String)] = [
                ("generic", ["strip.png": strip], "images.strip.png: generic passes do not show a strip image"),
                ("generic", ["photo.png": strip], "images.photo.png: not an image name Wallet uses"),
                ("generic", ["thumbnail.png": "%%%"], "images.thumbnail.png: not base64"),
                ("generic", ["thumbnail.png": Data("GIF89a".utf8).base64EncodedString()],
                 "images.thumbnail.png: not a valid PNG image"),
            ]
            for (index, (template, images, expected)) in cases.enumerated() {
                let answer = try await Self.create(client, template: template, images: images, serialNumber: "IMG-\(index)")
                #expect(answer.status == .unprocessableContent, "\(images.keys): \(String(buffer: answer.body))")
                #expect(String(buffer: answer.body).contains(expected), "\(String(buffer: answer.body))")
                let stored = try await client.execute(uri: "/wallet/api/v1/passes/pass.dev.tessera.demo/IMG-\(index)",
                                                      method: .get, headers: .admin)
                #expect(stored.status == .notFound)
            }
            // The answer lists the warnings after the errors: every problem at once.
            let both = try await Self.create(client, template: "generic", images: ["strip.png": strip], serialNumber: "IMG-W")
            #expect(String(buffer: both.body).contains("warning: strip.png: generic passes do not show a strip image"),
                    "\(String(buffer: both.body))")
            let notAnObject = try await client.execute(uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                                                       body: .json(#"{"template":"generic","data":{"images":"x"}}"#))
            #expect(notAnObject.status == .unprocessableContent)
            #expect(String(buffer: notAnObject.body).contains("images: must be an object"))
        }
    }
}
