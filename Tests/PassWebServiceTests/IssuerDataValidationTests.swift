import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PassBundle
import PassCrypto
import PassModel
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// Issuer data goes through the same checks as `tessera pass create`: unknown keys are warnings in the answer,
/// invalid keys a 422 naming them; a stored pass that no longer builds is a 500 with a log line on a device fetch.
@Suite("Issuer data validation")
struct IssuerDataValidationTests {
    @Test("an unknown key is a warning in the PATCH and POST answers")
    func unknownKeyIsAWarning() async throws {
        let fixture = try WebServiceFixture()
        try await fixture.withClient { client in
            let created = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                body: .json(#"{"template":"event-ticket","data":{"serialNumber":"V-1","anotherUnknownKey":"x"}}"#))
            #expect(created.status == .created)
            let createWarnings = created.body.json["warnings"] as? [String] ?? []
            #expect(createWarnings.contains { $0.contains("anotherUnknownKey") && $0.contains("unknown key") }, "\(createWarnings)")

            let patched = try await client.execute(
                uri: "/wallet/api/v1/passes/pass.dev.tessera.demo/V-1", method: .patch, headers: .admin,
                body: .json(#"{"data":{"totallyUnknownKey":1}}"#))
            #expect(patched.status == .ok, "\(String(buffer: patched.body))")
            let warnings = patched.body.json["warnings"] as? [String] ?? []
            #expect(warnings.contains { $0.contains("totallyUnknownKey") && $0.contains("unknown key") }, "\(warnings)")
        }
    }

    @Test("on a development server (http on loopback) the webServiceURL warning names the server's public URL, not the data")
    func webServiceURLWarningNamesThePublicURL() async throws {
        let issuer = try WebServiceFixture.standaloneIssuer(publicURL: URL(string: "http://127.0.0.1:8080")!)
        let (_, warnings) = try await issuer.createPassReportingWarnings(
            template: "event-ticket", data: ["serialNumber": .string("HTTP-1")])
        #expect(warnings.contains { $0.hasPrefix("webServiceURL (the server's --public-url): http is for development") },
                "\(warnings)")
        #expect(!warnings.contains { $0.hasPrefix("data.webServiceURL") }, "\(warnings)")
        // A refusal lists the data's problems, not the server's own configuration.
        do {
            _ = try await issuer.createPassReportingWarnings(
                template: "event-ticket", data: ["serialNumber": .string("HTTP-2"), "fields": .object(["noSuchField": .string("x")])])
            Issue.record("a field the template lacks was accepted")
        } catch let error as IssuerError {
            #expect(error.description.contains("noSuchField") && !error.description.contains("webServiceURL"), "\(error)")
        }
    }

    @Test("keys with control characters are refused with 422 naming them, and nothing changes")
    func controlCharacterKeysAreRefused() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "V-2")
        try await fixture.withClient { client in
            for body in [
                #"{"data":{"bad\u0007key":1}}"#, #"{"data":{"fields":{"seat\nx":"1A"}}}"#,
                #"{"data":{"nested":{"a\u001b[31m":1}}}"#,
            ] {
                let answer = try await client.execute(
                    uri: "/wallet/api/v1/passes/\(pass.passTypeIdentifier)/V-2", method: .patch, headers: .admin,
                    body: .json(body))
                #expect(answer.status == .unprocessableContent, "\(body)")
                let message = String(buffer: answer.body)
                #expect(message.contains("control characters"), "\(message)")
                #expect(message.contains("data."), "\(message)")
            }
            let created = try await client.execute(
                uri: "/wallet/api/v1/passes", method: .post, headers: .admin,
                body: .json(#"{"template":"event-ticket","data":{"serialNumber":"V-3","x\u0000":1}}"#))
            #expect(created.status == .unprocessableContent)
        }
        let stored = try await fixture.store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "V-2")
        #expect(stored?.updateTag == pass.updateTag)
        #expect(try await fixture.store.pass(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "V-3") == nil)
    }

    @Test("a stored pass that cannot be built answers 500 internalError to Wallet and the issuer, with an error logged")
    func buildFailureIsAServerError() async throws {
        let fixture = try WebServiceFixture()
        let pass = try await fixture.createPass(serial: "V-4")
        // Data that no longer fits the template (e.g. written by an older version, or the template changed).
        _ = try await fixture.store.updatePass(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: "V-4",
            change: PassChange(data: Data(#"{"fields":{"noSuchField":"x"}}"#.utf8)), now: fixture.clock.now)
        let logs = RecordedLogs()
        try await fixture.withClient(logger: logs.logger()) { client in
            let device = try await client.execute(
                uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/V-4", method: .get,
                headers: .applePass(pass.authenticationToken))
            #expect(device.status == .internalServerError)
            // The device asked for nothing wrong: the server's internalError, never the issuer API's 422.
            let envelope = try JSONSerialization.jsonObject(with: Data(device.body.readableBytesView)) as? [String: Any]
            let error = envelope?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "internalError", "\(String(buffer: device.body))")
            #expect(error?["message"] as? String == "the pass could not be built")
            let issuer = try await client.execute(
                uri: "/wallet/api/v1/passes/\(pass.passTypeIdentifier)/V-4/pkpass", method: .get, headers: .admin)
            #expect(issuer.status == .internalServerError)
        }
        let errors = logs.lines.filter { $0.level >= .error && $0.message.contains("could not be built") }
        #expect(errors.count == 2, "\(logs.lines.map(\.printed))")
        #expect(errors.first?.metadata["error"]?.contains("noSuchField") == true)
    }

    @Test("a stored pass whose template is gone answers 500 internalError to a device fetch and to personalize, not 422")
    func missingTemplateIsAServerError() async throws {
        let fixture = try WebServiceFixture()
        let type = "pass.dev.tessera.demo"
        _ = try await fixture.store.insertPass(NewPass(
            passTypeIdentifier: type, serialNumber: "G-1", authenticationToken: "gone-template-token-0123456789",
            template: "removed-template", data: Data("{}".utf8), downloadToken: String(repeating: "g", count: 40)),
            now: fixture.clock.now)
        let logs = RecordedLogs()
        try await fixture.withClient(logger: logs.logger()) { client in
            let fetch = try await client.execute(
                uri: "/wallet/v1/passes/\(type)/G-1", method: .get, headers: .applePass("gone-template-token-0123456789"))
            let personalize = try await client.execute(
                uri: "/wallet/v1/passes/\(type)/G-1/personalize", method: .post, headers: .json(),
                body: .json(#"{"personalizationToken":"t","requiredPersonalizationInfo":{"fullName":"Ada Lovelace"}}"#))
            for answer in [fetch, personalize] {
                #expect(answer.status == .internalServerError, "\(String(buffer: answer.body))")
                let envelope = try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [String: Any]
                #expect((envelope?["error"] as? [String: Any])?["code"] as? String == "internalError")
            }
        }
        #expect(logs.lines.filter { $0.level >= .error }.count >= 2, "\(logs.lines.map(\.printed))")
    }
}
