import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PassWebService
import Testing
import TesseraTestSupport

/// `POST /v1/log` over a socket, read back from the server's log: no forged lines, no raw terminal escapes, and no
/// identifier in any of the forms Wallet writes them.
@Suite("Wallet log redaction")
struct LogRedactionTests {
    static let device = "6b2a9c0f5e4d3c2b1a0f9e8d7c6b5a49"
    static let pushToken = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    static let authenticationToken = "vxPqRsTuWzYaBcDeFgHiJkLmNoPqRsTu"  // 32 letters, no digit
    static let serial = "SER-0001"

    /// Messages in the phrasings Wallet's own logs use, plus the key=value and JSON forms.
    static let messages = [
        "[2026-11-24 08:10:11 +0000] Register task (for device \(device), pass type pass.dev.tessera.demo, serial number \(serial); with web service url https://passes.example.test/wallet) encountered error: Unexpected response code 500",
        "[2026-11-24 08:10:12 +0000] Get pass task (pass type pass.dev.tessera.demo, serial number \(serial), if-modified-since (null); with web service url https://passes.example.test/wallet) encountered error: Received invalid pass data (The pass cannot be read because it isn't valid.)",
        "[2026-11-24 08:10:13 +0000] Web service error for pass.dev.tessera.demo (https://passes.example.test/wallet): Update requested for unregistered serial number \(serial)",
        "[2026-11-24 08:10:14 +0000] Unregister task (for device \(device), pass type pass.dev.tessera.demo, serial number \(serial); with web service url https://passes.example.test/wallet) encountered error: Authentication failure",
        "[2026-11-24 08:10:15 +0000] Get serial #s task (for device \(device), pass type pass.dev.tessera.demo, last updated (null); with web service url https://passes.example.test/wallet) encountered error: Unexpected response code 404",
        "registration failed pushToken=\(pushToken) deviceLibraryIdentifier=\(device)",
        #"request body {"pushToken":"\#(pushToken)","serialNumber": "\#(serial)"}"#,
        "Authorization: ApplePass \(authenticationToken) was refused",
        "stray token \(authenticationToken) in text",
    ]

    @Test("real Wallet phrasings, key=value and JSON forms lose every identifier")
    func identifiersAreRedacted() async throws {
        let fixture = try WebServiceFixture()
        let logs = RecordedLogs()
        let body = try JSONSerialization.data(withJSONObject: ["logs": Self.messages])
        try await fixture.withClient(logger: logs.logger()) { client in
            let answer = try await client.execute(
                uri: "/wallet/v1/log", method: .post, headers: .json(), body: ByteBuffer(bytes: body))
            #expect(answer.status == .ok)
        }
        let logged = logs.lines.filter { $0.message == "wallet log" }.compactMap { $0.metadata["message"] }
        #expect(logged.count == Self.messages.count)
        for line in logged {
            for secret in [Self.device, Self.pushToken, Self.authenticationToken, Self.serial] {
                #expect(!line.contains(secret), "\(secret) in \(line)")
            }
        }
        #expect(logged[0].contains("pass type pass.dev.tessera.demo, serial number <redacted>;"))
        #expect(logged[0].contains("https://passes.example.test/wallet"))
        #expect(logged[4].contains("Get serial #s task (for device <redacted>,"))
    }

    @Test("newlines and terminal escapes are escaped, so no log line can be forged")
    func controlCharactersAreEscaped() async throws {
        let fixture = try WebServiceFixture()
        let logs = RecordedLogs()
        let forged = "a\n2026-11-24T08:00:00+0000 critical tessera: FORGED"
        let messages = [forged, "\u{1B}[31mred\u{1B}[0m", "cr\rlf\u{2028}sep\u{7F}del\u{85}nel"]
        let body = try JSONSerialization.data(withJSONObject: ["logs": messages])
        try await fixture.withClient(logger: logs.logger()) { client in
            let answer = try await client.execute(
                uri: "/wallet/v1/log", method: .post, headers: .json(), body: ByteBuffer(bytes: body))
            #expect(answer.status == .ok)
        }
        let logged = logs.lines.filter { $0.message == "wallet log" }
        #expect(logged.count == 3)
        for line in logged {
            let printed = line.printed
            #expect(!printed.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(printed.debugDescription)")
            #expect(!printed.contains("\u{2028}"))
        }
        #expect(logged[0].metadata["message"] == #"a\n2026-11-24T08:00:00+0000 critical tessera: FORGED"#)
        #expect(logged[1].metadata["message"] == #"\u{1B}[31mred\u{1B}[0m"#)
    }

    @Test("a body of the longest messages a device may send, each a run of letters after a colon, is redacted at once")
    func hostileMessages() {
        // 50 messages of 1,000 characters, the most one request carries: the key pattern once scanned each to its
        // end and back from every letter (about 5 s of an event loop's time in a release build).
        let started = ContinuousClock.now
        for index in 0..<50 {
            let message = ":token" + String(repeating: "a", count: 993) + "\(index % 10)"
            #expect(LogRedactor.redact(message) == ":" + LogRedactor.placeholder)
        }
        let spent = ContinuousClock.now - started
        #expect(spent < .seconds(3), "\(spent)")
        #expect(LogRedactor.redact("x" + String(repeating: "y", count: 60) + " pushToken=\(Self.pushToken)").contains("pushToken=<redacted>"))
    }

    @Test("ordinary words stay readable")
    func wordsStay() {
        let message = "Web service error for pass.dev.tessera.demo: internationalization of responses unavailable"
        #expect(LogRedactor.redact(message) == message)
    }
}

extension LogRedactionTests {
    @Test("a failed request's path is logged with its route words only: download tokens and identifiers are redacted")
    func requestPaths() {
        #expect(LogRedactor.requestPath("/download/Qm9vazEyMzQ1Njc4OTAxMjM0NTY3ODkw.pkpass") == "/download/<redacted>")
        #expect(LogRedactor.requestPath("/v1/devices/0a1b2c3d4e5f60718293a4b5c6d7e8f9/registrations/pass.dev.tessera.demo/SER-1")
            == "/v1/devices/<redacted>/registrations/<redacted>/<redacted>")
        #expect(LogRedactor.requestPath("/api/v1/passes") == "/api/v1/passes")
        #expect(LogRedactor.requestPath("/checkout/sheet/cs_a1045tERokoE3Sqs4XdtfqAT") == "/checkout/sheet/<redacted>")
    }
}
