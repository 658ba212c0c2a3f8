import Foundation
import Testing
import TesseraTestSupport

/// `tessera pass create` reporting every problem of a pass at once, with the issuer's own certificate: type errors
/// beside the rest of the validator's findings, Apple's poster rules, duplicate keys and missing images.
extension IssuingCLITests {
    @Test func createReportsEveryErrorAndWarningTogether() async throws {
        // A copy of the template with a key Wallet does not know (a warning) and three values of the wrong type.
        let template = work.appendingPathComponent("broken-ticket")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("event-ticket"), to: template)
        let passURL = template.appendingPathComponent("pass.json")
        var pass = try JSONSerialization.jsonObject(with: Data(contentsOf: passURL)) as? [String: Any] ?? [:]
        pass["someUndocumentedKey"] = "x"
        try JSONSerialization.data(withJSONObject: pass).write(to: passURL)
        let data = try write("types.json", #"{"formatVersion": "1", "voided": "yes", "maxDistance": "far", "backgroundColor": "blue", "fields": {"nope": "1"}}"#)
        let create = try await Subprocess.tessera(["pass", "create", "--template", template.path, "--data", data,
                                             "--output", work.appendingPathComponent("types.pkpass").path] + credentials)
        #expect(create.status == 1)
        for expected in ["error: formatVersion:", "error: voided:", "error: maxDistance:", "error: backgroundColor:",
                         "error: fields.nope:", "warning: someUndocumentedKey: unknown key"] {
            #expect(create.stderr.contains(expected), "\(expected) in \(create.stderr)")
        }

        // The same values in the template itself: the type errors and every other problem of the rest of the pass
        // (the colour, the unknown key), one line each, and nothing written.
        pass["formatVersion"] = "1"
        pass["voided"] = "yes"
        pass["maxDistance"] = "far"
        pass["backgroundColor"] = "blue"
        try JSONSerialization.data(withJSONObject: pass).write(to: passURL)
        let output = work.appendingPathComponent("t.pkpass").path
        let template2 = try await Subprocess.tessera(["pass", "create", "--template", template.path, "--output", output]
                                               + credentials)
        #expect(template2.status == 1)
        let lines = template2.stderr.split(separator: "\n").map(String.init)
        for expected in ["error: formatVersion: expected", "error: voided: expected", "error: maxDistance: expected",
                         "error: backgroundColor: must be a colour written rgb(r, g, b), found \"blue\"",
                         "warning: someUndocumentedKey: unknown key"] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "\(expected) in \(template2.stderr)")
        }
        #expect(lines.last == "error: \(output) not written: 4 error(s), 1 warning(s) in the template", "\(template2.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aPosterTicketWithAnotherEventTypeIsNotSigned() async throws {
        let template = work.appendingPathComponent("poster-concert")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("poster-event-ticket"), to: template)
        let passURL = template.appendingPathComponent("pass.json")
        var pass = try JSONSerialization.jsonObject(with: Data(contentsOf: passURL)) as? [String: Any] ?? [:]
        var semantics = pass["semantics"] as? [String: Any] ?? [:]
        semantics["eventType"] = "PKEventTypeConcert"
        pass["semantics"] = semantics
        try JSONSerialization.data(withJSONObject: pass).write(to: passURL)
        let output = work.appendingPathComponent("concert.pkpass").path
        let create = try await Subprocess.tessera(["pass", "create", "--template", template.path, "--output", output] + credentials)
        #expect(create.status == 1)
        let expected: String = "error: semantics.eventType: unknown value \"PKEventTypeConcert\" on a poster event ticket "
            + "(preferredStyleSchemes lists posterEventTicket), expected one of PKEventTypeGeneric, "
            + "PKEventTypeLivePerformance, PKEventTypeMovie, PKEventTypeSports, PKEventTypeConference, "
            + "PKEventTypeConvention, PKEventTypeWorkshop, PKEventTypeSocialGathering"
        #expect(create.stderr.contains(expected), "\(create.stderr)")
        #expect(create.stderr.contains("\(output) not written: 1 error(s)"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // The classic layout takes any value with a warning: without posterEventTicket the pass is signed.
        pass["preferredStyleSchemes"] = ["eventTicket"]
        try JSONSerialization.data(withJSONObject: pass).write(to: passURL)
        let classic = try await Subprocess.tessera(["pass", "create", "--template", template.path, "--output", output] + credentials)
        #expect(classic.status == 0, "\(classic.stderr)")
        #expect(classic.stderr.contains("warning: semantics.eventType: unknown value \"PKEventTypeConcert\", expected one of"))
    }

    @Test func duplicateKeysAndAMissingIconAreNamed() async throws {
        let template = work.appendingPathComponent("dup-ticket")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("event-ticket"), to: template)
        let passURL = template.appendingPathComponent("pass.json")
        var text = try String(contentsOf: passURL, encoding: .utf8)
        text = text.replacingOccurrences(of: "{\n", with: "{\n  \"organizationName\": \"First Org\",\n", options: [], range: text.range(of: "{\n"))
        try Data(text.utf8).write(to: passURL)
        // With a missing icon too: both are told at once, not the duplicate alone.
        try FileManager.default.removeItem(at: template.appendingPathComponent("icon.png"))
        let duplicate = try await Subprocess.tessera(["pass", "create", "--template", template.path,
                                                "--output", work.appendingPathComponent("dup.pkpass").path] + credentials)
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("error: organizationName: appears twice in one object (line 2, column 3 and line"), "\(duplicate.stderr)")
        #expect(duplicate.stderr.contains("error: icon.png: required image is missing"), "\(duplicate.stderr)")
        #expect(duplicate.stderr.contains("dup.pkpass not written"), "\(duplicate.stderr)")

        let noIcon = work.appendingPathComponent("no-icon")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("coupon"), to: noIcon)
        try FileManager.default.removeItem(at: noIcon.appendingPathComponent("icon.png"))
        let missing = try await Subprocess.tessera(["pass", "create", "--template", noIcon.path,
                                              "--output", work.appendingPathComponent("no-icon.pkpass").path] + credentials)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: icon.png: required image is missing: only icon@2x.png"), "\(missing.stderr)")
    }
}
