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

@Suite("Issuer API")
struct IssuerAPITests {
    @Test("off without a token: 404, never open")
    func offWithoutToken() async throws {
        let fixture = try WebServiceFixture(adminToken: nil)
        try await fixture.withClient { client in
            let answer = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .json(), body: .json(#"{"template":"coupon"}"#))
            #expect(answer.status == .notFound)
        }
    }

    @Test("a missing or wrong bearer token gets 401")
    func unauthorized() async throws {
        let fixture = try WebServiceFixture()
        try await fixture.withClient { client in
            let none = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .json(), body: .json(#"{"template":"coupon"}"#))
            #expect(none.status == .unauthorized)
            let wrong = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post,
                headers: [.authorization: "Bearer admin-token-0123456789abcdeX", .contentType: "application/json"],
                body: .json(#"{"template":"coupon"}"#))
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test("create, read, change, void, download and count registrations")
    func lifecycle() async throws {
        let fixture = try WebServiceFixture()
        try await fixture.withClient { client in
            let created = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                body: .json(#"{"template":"event-ticket","data":{"fields":{"seat":"14C"},"barcodeMessage":"T-1"}}"#))
            #expect(created.status == .created)
            let body = created.body.json
            let type = try #require(body["passTypeIdentifier"] as? String)
            let serial = try #require(body["serialNumber"] as? String)
            let token = try #require(body["authenticationToken"] as? String)
            let downloadURL = try #require(body["downloadURL"] as? String)
            #expect(type == "pass.dev.tessera.demo")
            #expect(serial.count == 36)  // generated UUID
            #expect(token.count == 32 && token.allSatisfy { $0.isLetter || $0.isNumber })
            #expect(downloadURL.hasPrefix("https://passes.example.test/wallet/download/"))

            // A device registers, then the issuer changes the pass: a push is queued and sent.
            let device = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
            let registered = try await client.execute(
                uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)", method: .post,
                headers: .json(.applePass(token)), body: .json(#"{"pushToken":"ee55"}"#))
            #expect(registered.status == .created)

            let path = "/wallet/api/v1/passes/\(type)/\(serial)"
            let changed = try await client.execute(
                uri: path, method: .patch, headers: .admin, body: .json(#"{"data":{"fields":{"seat":"15D"}}}"#))
            #expect(changed.status == .ok)
            #expect(changed.body.json["pushesQueued"] as? Int == 1)
            let data = changed.body.json["data"] as? [String: Any]
            #expect((data?["fields"] as? [String: Any])?["seat"] as? String == "15D")
            #expect(data?["barcodeMessage"] as? String == "T-1")  // merged, not replaced
            #expect(Int(changed.body.json["updateTag"] as! String)! > Int(body["updateTag"] as! String)!)
            try await fixture.dispatcher.sendDueBatch()
            #expect(fixture.pushes.sent == [.init(pushToken: "ee55", passTypeIdentifier: type)])

            let read = try await client.execute(uri: path, method: .get, headers: .admin)
            #expect(read.body.json["registrations"] as? Int == 1)
            let count = try await client.execute(uri: "\(path)/registrations", method: .get, headers: .admin)
            #expect(count.body.json["count"] as? Int == 1)

            let voided = try await client.execute(uri: path, method: .delete, headers: .admin)
            #expect(voided.status == .ok)
            #expect(voided.body.json["voided"] as? Bool == true)
            #expect(voided.body.json["pushesQueued"] as? Int == 1)
            try await fixture.dispatcher.sendDueBatch()
            // The same DELETE again (a client's retry): the pass as it is, no new version and no push.
            let again = try await client.execute(uri: path, method: .delete, headers: .admin)
            #expect(again.status == .ok && again.body.json["voided"] as? Bool == true)
            #expect(again.body.json["updateTag"] as? String == voided.body.json["updateTag"] as? String)
            #expect(again.body.json["pushesQueued"] as? Int == 0)
            #expect(try await fixture.dispatcher.sendDueBatch() == 0)
            #expect(fixture.pushes.sent.count == 2)

            // The holder link needs no credentials; the bundle is the voided version.
            let linkPath = String(downloadURL.dropFirst("https://passes.example.test".count))
            let download = try await client.execute(uri: linkPath, method: .get)
            #expect(download.status == .ok)
            #expect(download.headers[.contentType] == "application/vnd.apple.pkpass")
            let passJSON = try #require(try PassArchive(data: download.body.data).files["pass.json"]).jsonObject
            #expect(passJSON["voided"] as? Bool == true)
            let issuerDownload = try await client.execute(uri: "\(path)/pkpass", method: .get, headers: .admin)
            #expect(issuerDownload.body.data.count > 1000)
            let badLink = try await client.execute(uri: "/wallet/download/\(String(repeating: "A", count: 40)).pkpass", method: .get)
            #expect(badLink.status == .notFound)
        }
    }

    @Test("bad input: unknown template, unknown field, server-set keys, duplicate serial, missing pass")
    func badInput() async throws {
        let fixture = try WebServiceFixture()
        try await fixture.withClient { client in
            func create(_ json: String) async throws -> LiveTestClient.Response {
                try await client.execute(uri: "/wallet/api/v1/passes", method: .post, headers: .admin, body: .json(json))
            }
            let unknownTemplate = try await create(#"{"template":"../etc","data":{}}"#)
            #expect(unknownTemplate.status == .unprocessableContent)
            #expect(String(buffer: unknownTemplate.body).contains("template"))
            let unknownField = try await create(#"{"template":"coupon","data":{"fields":{"nope":"x"}}}"#)
            #expect(unknownField.status == .unprocessableContent)
            #expect(String(buffer: unknownField.body).contains("nope"))
            let serverSet = try await create(#"{"template":"coupon","data":{"authenticationToken":"x"}}"#)
            #expect(serverSet.status == .unprocessableContent)
            #expect(String(buffer: serverSet.body).contains("data.authenticationToken"))
            let badSerial = try await create(#"{"template":"coupon","data":{"serialNumber":"a/b"}}"#)
            #expect(badSerial.status == .unprocessableContent)
            let noTemplate = try await create(#"{"data":{}}"#)
            #expect(noTemplate.status == .badRequest)
            #expect(String(buffer: noTemplate.body).contains("template"))
            #expect(try await create(#"{"template":"coupon","data":{"serialNumber":"C-1"}}"#).status == .created)
            let duplicate = try await create(#"{"template":"coupon","data":{"serialNumber":"C-1"}}"#)
            #expect(duplicate.status == .conflict)
            let missing = try await client.execute(
                uri: "/wallet/api/v1/passes/pass.dev.tessera.demo/C-404", method: .patch, headers: .admin,
                body: .json(#"{"data":{}}"#))
            #expect(missing.status == .notFound)
        }
        // Nothing half-written: only the one good pass exists.
        #expect(try await fixture.store.pass(passTypeIdentifier: "pass.dev.tessera.demo", serialNumber: "C-1") != nil)
    }
}
