import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraTestSupport

extension OpenAPIConformanceTests {
    /// Google Wallet's public paths: a template image by address (and a missing one), callbacks (verified, refused,
    /// for no pass here), the landing page (and a missing one).
    func exerciseGoogle(_ call: Call, downloadLink: String) async throws {
        let logo = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/store-card-rewards/logo@3x.png").path
        let digest = try await Subprocess.run("openssl", ["dgst", "-sha256", "-r", logo]).stdout.prefix(64)
        let image = try await call(.get, "/google/images/\(digest).png", [:], nil)
        #expect(image.status == .ok, "a template image by its address")
        var conditional = HTTPFields()
        conditional[.ifNoneMatch] = "\"\(digest)\""
        _ = try await call(.get, "/google/images/\(digest).png", conditional, nil)
        _ = try await call(.head, "/google/images/\(digest).png", [:], nil)
        _ = try await call(.get, "/google/images/\(String(repeating: "0", count: 64)).png", [:], nil)
        _ = try await call(.head, "/google/images/nope.png", [:], nil)

        let issuer = openAPIGoogleIssuerId
        let object = "\(issuer).pass.dev.tessera.demo.O-2D1"
        if GoogleCallbackSigner.isAvailable {
            let save = try GoogleCallbackSigner.sign(issuerId: issuer, classId: "\(issuer).store-2Dcard-2Drewards",
                                                     objectId: object, eventType: "save", nonce: "openapi-1")
            let accepted = try await call(.post, "/google/v1/callbacks", .json(), String(decoding: save, as: UTF8.self))
            #expect(accepted.status == .ok)
            let elsewhere = try GoogleCallbackSigner.sign(issuerId: issuer, classId: "\(issuer).x",
                                                          objectId: "\(issuer).pass.dev.tessera.demo.NOPE", eventType: "del", nonce: "openapi-2")
            _ = try await call(.post, "/google/v1/callbacks", .json(), String(decoding: elsewhere, as: UTF8.self))
        }
        _ = try await call(.post, "/google/v1/callbacks", .json(), #"{"protocolVersion":"ECv2SigningOnly"}"#)

        let token = downloadLink.split(separator: "/").last.map { String($0.dropLast(".pkpass".count)) } ?? ""
        let page = try await call(.get, "/p/\(token)", [:], nil)
        #expect(page.status == .ok)
        _ = try await call(.get, "/p/no-such-token", [:], nil)
    }
}
