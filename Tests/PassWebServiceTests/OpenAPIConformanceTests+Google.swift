import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// What the Google calls need that takes a subprocess (a digest, signatures by Python), made before the server runs:
/// blocking its event loop's thread would let the server's idle timer close the client's connection.
struct GoogleExerciseFixtures: Sendable {
    var logoDigest: String
    var save: String?
    var elsewhere: String?

    static func make() async throws -> GoogleExerciseFixtures {
        let logo = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/store-card-rewards/logo@3x.png").path
        let digest = String(try await Subprocess.run("openssl", ["dgst", "-sha256", "-r", logo]).stdout.prefix(64))
        guard GoogleCallbackSigner.isAvailable else { return GoogleExerciseFixtures(logoDigest: digest) }
        let issuer = openAPIGoogleIssuerId
        let save = try GoogleCallbackSigner.sign(issuerId: issuer, classId: "\(issuer).store-2Dcard-2Drewards",
                                                 objectId: "\(issuer).pass.dev.tessera.demo.O-2D1", eventType: "save",
                                                 nonce: "openapi-1", lifetimeMillis: 3_600_000)
        let elsewhere = try GoogleCallbackSigner.sign(issuerId: issuer, classId: "\(issuer).x",
                                                      objectId: "\(issuer).pass.dev.tessera.demo.NOPE", eventType: "del",
                                                      nonce: "openapi-2", lifetimeMillis: 3_600_000)
        return GoogleExerciseFixtures(logoDigest: digest, save: String(decoding: save, as: UTF8.self),
                                      elsewhere: String(decoding: elsewhere, as: UTF8.self))
    }
}

extension OpenAPIConformanceTests {
    /// Google Wallet's public paths: a template image by address (and a missing one), callbacks (verified, refused,
    /// for no pass here), the landing page (and a missing one).
    func exerciseGoogle(_ call: Call, downloadLink: String, fixtures: GoogleExerciseFixtures) async throws {
        let digest = fixtures.logoDigest
        let image = try await call(.get, "/google/images/\(digest).png", [:], nil)
        #expect(image.status == .ok, "a template image by its address")
        var conditional = HTTPFields()
        conditional[.ifNoneMatch] = "\"\(digest)\""
        _ = try await call(.get, "/google/images/\(digest).png", conditional, nil)
        _ = try await call(.head, "/google/images/\(digest).png", [:], nil)
        _ = try await call(.get, "/google/images/\(String(repeating: "0", count: 64)).png", [:], nil)
        _ = try await call(.head, "/google/images/nope.png", [:], nil)
        if let save = fixtures.save, let elsewhere = fixtures.elsewhere {
            let accepted = try await call(.post, "/google/v1/callbacks", .json(), save)
            #expect(accepted.status == .ok)
            _ = try await call(.post, "/google/v1/callbacks", .json(), elsewhere)
        }
        _ = try await call(.post, "/google/v1/callbacks", .json(), #"{"protocolVersion":"ECv2SigningOnly"}"#)

        let token = downloadLink.split(separator: "/").last.map { String($0.dropLast(".pkpass".count)) } ?? ""
        let page = try await call(.get, "/p/\(token)", [:], nil)
        #expect(page.status == .ok)
        _ = try await call(.get, "/p/no-such-token", [:], nil)
    }
}
