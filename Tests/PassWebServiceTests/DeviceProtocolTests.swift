import Foundation
import Hummingbird
import HummingbirdTesting
import PassBundle
import PassStore
@testable import PassWebService
import Testing
import Logging
import PassCrypto
import PassModel
import TesseraTestSupport

@Suite("Apple's device protocol")
struct DeviceProtocolTests {
    let device = "6b2a9c0f5e4d3c2b1a0f9e8d7c6b5a49"

    private func registrationPath(_ pass: PassRecord, device: String? = nil) -> String {
        "/wallet/v1/devices/\(device ?? self.device)/registrations/\(pass.passTypeIdentifier)/\(pass.serialNumber)"
    }

    @Test("registration: 201 when new, 200 when already registered, push token updated")
    func registration() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-1001")
        try await fixture.withClient { client in
            let path = registrationPath(pass)
            let first = try await client.execute(
                uri: path, method: .post, headers: .json(.applePass(pass.authenticationToken)),
                body: .json(#"{"pushToken":"aa11"}"#))
            #expect(first.status == .created)
            let again = try await client.execute(
                uri: path, method: .post, headers: .json(.applePass(pass.authenticationToken)),
                body: .json(#"{"pushToken":"bb22"}"#))
            #expect(again.status == .ok)
        }
        #expect(try await fixture.store.registrationCount(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "E-1001") == 1)
        _ = try await fixture.issuer.changePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "E-1001", data: ["fields": .object(["seat": .string("1A")])])
        try await fixture.dispatcher.sendDueBatch()
        #expect(fixture.pushes.sent.map(\.pushToken) == ["bb22"])
    }

    @Test("a wrong token, a missing header and an unknown serial all get the same 401")
    func unauthorized() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-1002")
        try await fixture.withClient { client in
            var unknown = pass
            unknown.serialNumber = "E-9999"
            let answers = [
                try await client.execute(
                    uri: registrationPath(pass), method: .post, headers: .json(.applePass("wrong-token-0000000000000000000")),
                    body: .json(#"{"pushToken":"aa"}"#)),
                try await client.execute(
                    uri: registrationPath(pass), method: .post, headers: .json(), body: .json(#"{"pushToken":"aa"}"#)),
                try await client.execute(
                    uri: registrationPath(pass), method: .post, headers: .json([.authorization: "Bearer \(pass.authenticationToken)"]),
                    body: .json(#"{"pushToken":"aa"}"#)),
                try await client.execute(
                    uri: registrationPath(unknown), method: .post, headers: .json(.applePass(pass.authenticationToken)),
                    body: .json(#"{"pushToken":"aa"}"#)),
                try await client.execute(
                    uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/E-9999", method: .get,
                    headers: .applePass(pass.authenticationToken)),
                try await client.execute(
                    uri: registrationPath(pass), method: .delete, headers: .applePass("nope")),
                // Without a valid credential the body is never judged: a bad or oversized one is the same 401.
                try await client.execute(
                    uri: registrationPath(pass), method: .post, headers: .json(.applePass("wrong-token-0000000000000000000")),
                    body: .json(#"{"push":"aa"}"#)),
                try await client.execute(
                    uri: registrationPath(unknown), method: .post, headers: .json(.applePass(pass.authenticationToken)),
                    body: .json(#"{"pushToken":"#)),
                try await client.execute(
                    uri: registrationPath(pass), method: .post, headers: .json(.applePass("wrong-token-0000000000000000000")),
                    body: .json(#"{"pushToken":""# + String(repeating: "a", count: 70_000) + #""}"#)),
            ]
            #expect(answers.map(\.status) == Array(repeating: .unauthorized, count: answers.count))
            #expect(Set(answers.map { $0.body.data }).count == 1)
            // RFC 9110 §11.6.1: a 401 names the scheme that is asked for.
            #expect(answers.allSatisfy { $0.headers[.wwwAuthenticate] == "ApplePass" })
        }
        #expect(try await fixture.store.registrationCount(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "E-1002") == 0,
                "no refused registration wrote anything")
    }

    @Test("malformed path segments and bodies get 400 naming what is wrong")
    func badRequests() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-1003")
        try await fixture.withClient { client in
            let longDevice = String(repeating: "a", count: 200)
            let tooLong = try await client.execute(
                uri: registrationPath(pass, device: longDevice), method: .post,
                headers: .json(.applePass(pass.authenticationToken)), body: .json(#"{"pushToken":"aa"}"#))
            #expect(tooLong.status == .badRequest)
            #expect(String(buffer: tooLong.body).contains("deviceLibraryIdentifier"))
            let badType = try await client.execute(
                uri: "/wallet/v1/devices/\(device)/registrations/com.example.nope", method: .get)
            #expect(badType.status == .badRequest)
            let noToken = try await client.execute(
                uri: registrationPath(pass), method: .post, headers: .json(.applePass(pass.authenticationToken)),
                body: .json(#"{"push":"aa"}"#))
            #expect(noToken.status == .badRequest)
            #expect(String(buffer: noToken.body).contains("pushToken"))
            let huge = try await client.execute(
                uri: registrationPath(pass), method: .post, headers: .json(.applePass(pass.authenticationToken)),
                body: .json(#"{"pushToken":""# + String(repeating: "a", count: 70_000) + #""}"#))
            #expect(huge.status == .contentTooLarge)
        }
    }

    @Test("a body that does not decode gets 400 with the member and the fault named", arguments: [
        (#"{"push":"aa"}"#, "pushToken: missing"),
        (#"{"pushToken":5}"#, "pushToken: must be a string"),
        (#"{"pushToken":null}"#, "pushToken: must be a string, found null"),
        (#"[]"#, "body: must be an object"),
        (#"{"pushToken":"#, "request body is not valid JSON (line 1, column 14: Unexpected end of file during JSON parse.)"),
        (#"{"pushToken":"a\u0000b"}"#, "pushToken: must be printable ASCII without spaces (an APNs token is hexadecimal)"),
        (#"{"pushToken":"aa bb"}"#, "pushToken: must be printable ASCII without spaces (an APNs token is hexadecimal)"),
        (#"{"pushToken":"ab\ncd"}"#, "pushToken: must be printable ASCII without spaces (an APNs token is hexadecimal)"),
        (#"{"pushToken":"é0"}"#, "pushToken: must be printable ASCII without spaces (an APNs token is hexadecimal)"),
    ])
    func undecodableBodies(body: String, message: String) async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-1004")
        try await fixture.withClient { client in
            let answer = try await client.execute(
                uri: registrationPath(pass), method: .post, headers: .json(.applePass(pass.authenticationToken)),
                body: .json(body))
            #expect(answer.status == .badRequest)
            #expect((answer.body.json["error"] as? [String: Any])?["message"] as? String == message)
        }
    }

    @Test("serial numbers: all without a tag, only newer with one, 204 when none or unknown device")
    func serialNumbers() async throws {
        let fixture = try WebServiceFixture()
        let first = try await fixture.createPass(serial: "E-2001")
        let second = try await fixture.createPass(serial: "E-2002")
        let type = first.passTypeIdentifier
        let list = "/wallet/v1/devices/\(device)/registrations/\(type)"
        try await fixture.withClient { client in
            for pass in [first, second] {
                let answer = try await client.execute(
                    uri: registrationPath(pass), method: .post, headers: .json(.applePass(pass.authenticationToken)),
                    body: .json(#"{"pushToken":"cc33"}"#))
                #expect(answer.status == .created)
            }
            let all = try await client.execute(uri: list, method: .get)
            #expect(all.status == .ok)
            #expect(all.body.json["serialNumbers"] as? [String] == ["E-2001", "E-2002"])
            let tag = try #require(all.body.json["lastUpdated"] as? String)
            let none = try await client.execute(uri: "\(list)?passesUpdatedSince=\(tag)", method: .get)
            #expect(none.status == .noContent)

            _ = try await fixture.issuer.changePass(passTypeIdentifier: type, serialNumber: "E-2001", data: ["fields": .object(["seat": .string("9F")])])
            let changed = try await client.execute(uri: "\(list)?passesUpdatedSince=\(tag)", method: .get)
            #expect(changed.body.json["serialNumbers"] as? [String] == ["E-2001"])
            let newTag = try #require(changed.body.json["lastUpdated"] as? String)
            #expect(Int64(newTag)! > Int64(tag)!)

            let garbage = try await client.execute(uri: "\(list)?passesUpdatedSince=yesterday", method: .get)
            #expect(Set(garbage.body.json["serialNumbers"] as? [String] ?? []) == ["E-2001", "E-2002"])
            let unknown = try await client.execute(
                uri: "/wallet/v1/devices/0000ffff/registrations/\(type)", method: .get)
            #expect(unknown.status == .noContent)
        }
    }

    @Test("latest pass: signed bundle with Last-Modified, 304 to the second, HEAD without a body")
    func latestPass() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-3001")
        try await fixture.withClient { client in
            let path = "/wallet/v1/passes/\(pass.passTypeIdentifier)/E-3001"
            let got = try await client.execute(uri: path, method: .get, headers: .applePass(pass.authenticationToken))
            #expect(got.status == .ok)
            #expect(got.headers[.contentType] == "application/vnd.apple.pkpass")
            let lastModified = try #require(got.headers[.lastModified])
            #expect(lastModified.hasSuffix(" GMT"))
            let archive = try PassArchive(data: got.body.data)
            let passJSON = try #require(archive.files["pass.json"]).jsonObject
            #expect(passJSON["webServiceURL"] as? String == "https://passes.example.test/wallet")
            #expect(passJSON["authenticationToken"] as? String == pass.authenticationToken)
            #expect(passJSON["serialNumber"] as? String == "E-3001")
            let report = PassVerifier(wwdr: fixture.chain.chain.wwdr, root: fixture.chain.chain.root).verify(data: got.body.data)
            #expect(report.wouldOpen, "\(report)")

            var conditional = HTTPFields.applePass(pass.authenticationToken)
            conditional[.ifModifiedSince] = lastModified
            let notModified = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)

            fixture.clock.advance(0.4)  // same second: still not modified after a change
            conditional[.ifModifiedSince] = "Mon, 01 Jan 2001 00:00:00 GMT"
            let older = try await client.execute(uri: path, method: .get, headers: conditional)
            #expect(older.status == .ok)

            let head = try await client.execute(uri: path, method: .head, headers: .applePass(pass.authenticationToken))
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(got.body.readableBytes))
        }
    }

    @Test("a change moves Last-Modified, so the old date no longer gets 304")
    func changeMovesLastModified() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-3002")
        try await fixture.withClient { client in
            let path = "/wallet/v1/passes/\(pass.passTypeIdentifier)/E-3002"
            let first = try await client.execute(uri: path, method: .get, headers: .applePass(pass.authenticationToken))
            fixture.clock.advance(5)
            _ = try await fixture.issuer.changePass(
                passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "E-3002", data: ["fields": .object(["seat": .string("2B")])])
            var headers = HTTPFields.applePass(pass.authenticationToken)
            headers[.ifModifiedSince] = first.headers[.lastModified]
            let second = try await client.execute(uri: path, method: .get, headers: headers)
            #expect(second.status == .ok)
            #expect(second.headers[.lastModified] != first.headers[.lastModified])
            let archive = try PassArchive(data: second.body.data)
            #expect(String(decoding: archive.files["pass.json"]!, as: UTF8.self).contains("2B"))
        }
    }

    @Test("unregister: 200, also when nothing was registered; the device goes with its last registration")
    func unregister() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "E-4001")
        try await fixture.withClient { client in
            let path = registrationPath(pass)
            _ = try await client.execute(
                uri: path, method: .post, headers: .json(.applePass(pass.authenticationToken)), body: .json(#"{"pushToken":"dd44"}"#))
            let removed = try await client.execute(uri: path, method: .delete, headers: .applePass(pass.authenticationToken))
            #expect(removed.status == .ok)
            let again = try await client.execute(uri: path, method: .delete, headers: .applePass(pass.authenticationToken))
            #expect(again.status == .ok)
            let list = try await client.execute(
                uri: "/wallet/v1/devices/\(device)/registrations/\(pass.passTypeIdentifier)", method: .get)
            #expect(list.status == .noContent)
        }
    }

    @Test("log: 200, redacted, rate limited per client")
    func log() async throws {
        let fixture = try WebServiceFixture(logBurst: 2)
        try await fixture.withClient { client in
            let body = ByteBuffer.json(#"{"logs":["Web service error for pass.dev.tessera.demo: bad thing"]}"#)
            let statuses = try await (0..<3).asyncMap { _ in
                try await client.execute(uri: "/wallet/v1/log", method: .post, headers: .json(), body: body).status
            }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
        }
    }

    @Test("log messages lose device identifiers, serial numbers and tokens")
    func redaction() {
        let message = "Registration for device 6b2a9c0f5e4d3c2b1a0f9e8d7c6b5a49 at https://x.test/v1/devices/6b2a9c0f5e4d3c2b/registrations/pass.dev.tessera.demo/E-1001 failed; serial E-1001 token abcdefabcdef0123456789"
        let redacted = LogRedactor.redact(message)
        #expect(!redacted.contains("6b2a9c0f5e4d3c2b"))
        #expect(!redacted.contains("E-1001"))
        #expect(!redacted.contains("abcdefabcdef0123456789"))
        #expect(redacted.contains("pass.dev.tessera.demo"))

        // Wallet orders' paths and members too.
        let order = LogRedactor.redact(#"GET https://s.test/v1/orders/order.com.example.shop/TS-1002 failed; {"orderIdentifier":"TS-1003"}"#)
        #expect(!order.contains("TS-1002") && !order.contains("TS-1003"), "\(order)")
        #expect(order.contains("order.com.example.shop"))
    }
}

extension Data {
    var jsonObject: [String: Any] { (try? JSONSerialization.jsonObject(with: self)) as? [String: Any] ?? [:] }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
