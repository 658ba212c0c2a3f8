import Foundation
import Hummingbird
import HummingbirdTesting
import PassBundle
import PassStore
import PassWebService
import Testing
import TesseraTestSupport
import Logging
import PassCrypto
import PassModel

@Suite("Rewards enrollment (personalize)")
struct PersonalizationTests {
    @Test("signs the personalization token; the next fetch is personalized and has no personalization.json")
    func personalize() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(template: "store-card-rewards", serial: "R-1")
        let original = try PassArchive(data: try await fixture.issuer.bundle(for: pass))
        #expect(original.files["personalization.json"] != nil)
        try await fixture.withClient { client in
            let token = "d2a8b3c4-personalization-token"
            let answer = try await client.execute(
                uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/R-1/personalize", method: .post, headers: .json(),
                body: .json(#"{"personalizationToken":"\#(token)","requiredPersonalizationInfo":{"fullName":"Ada Lovelace","postalCode":"94110","emailAddress":"ada@example.com"}}"#))
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/octet-stream")

            // The signature is a detached CMS over the token, by the pass certificate: checked with openssl.
            let folder = try TemporaryDirectory.make(prefix: "personalize")
            let signature = folder.appendingPathComponent("signature.der")
            let content = folder.appendingPathComponent("token.txt")
            try answer.body.data.write(to: signature)
            try Data(token.utf8).write(to: content)
            let verified = try await Subprocess.run("/usr/bin/openssl", [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", signature.path, "-content", content.path,
                "-CAfile", fixture.chain.path("root.pem"), "-certfile", fixture.chain.path("wwdr.pem"), "-purpose", "any",
                "-out", "/dev/null",
            ])
            #expect(verified.status == 0, "\(verified.stderr)")

            let fetched = try await client.execute(
                uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/R-1", method: .get,
                headers: .applePass(pass.authenticationToken))
            let archive = try PassArchive(data: fetched.body.data)
            #expect(archive.files["personalization.json"] == nil)
            #expect(!archive.files.keys.contains { $0.hasPrefix("personalizationLogo") })
            let passJSON = String(decoding: try #require(archive.files["pass.json"]), as: UTF8.self)
            #expect(passJSON.contains("Ada Lovelace"))
            #expect(passJSON.contains("94110"))
        }
    }

    @Test("a pass without rewards enrollment and an unknown pass get the same 404")
    func notPersonalizable() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(template: "store-card", serial: "S-1")
        try await fixture.withClient { client in
            let body = ByteBuffer.json(#"{"personalizationToken":"t","requiredPersonalizationInfo":{"fullName":"A B"}}"#)
            let plain = try await client.execute(
                uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/S-1/personalize", method: .post, headers: .json(), body: body)
            #expect(plain.status == .notFound)
            let unknown = try await client.execute(
                uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/S-404/personalize", method: .post, headers: .json(), body: body)
            #expect(unknown.status == .notFound)
            #expect(unknown.body.data == plain.body.data)
        }
    }
}
