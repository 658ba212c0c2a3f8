import Foundation
import GoogleWallet
import PassModel
import Testing
import TesseraTestSupport

/// What a pass's class is filed under at Google: a `google.json` `classId` as written, and a flight's class by its
/// scheduled date, whatever its delay.
@Suite("Google class identity")
struct GoogleClassIdentityTests {
    static let mapper = GoogleMappingTests.mapper

    static func template(_ name: String, google: String?) throws -> PassTemplate {
        let folder = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/\(name)")
        var files = try PassTemplate(directory: folder).files
        files[GoogleOverrides.fileName] = google.map { Data($0.utf8) }
        let template = try PassTemplate(directory: folder)
        return try PassTemplate(name: name, passJSON: template.passJSON, files: files)
    }

    @Test("a google.json classId is used as written; characters Google's ids do not take are refused naming the file")
    func classIdAsWritten() throws {
        let template = try Self.template("event-ticket", google: #"{"classId": "midnight-echo-2026.v2"}"#)
        let mapped = try Self.mapper.map(try template.pass(applying: nil), template: template)
        #expect(mapped.classId == "\(GoogleMappingTests.issuerId).midnight-echo-2026.v2")
        #expect(mapped.objectJSON["classId"]?.stringValue == mapped.classId)

        let refused = try Self.template("event-ticket", google: #"{"classId": "midnight echo"}"#)
        let error = #expect(throws: GoogleWalletError.self) {
            _ = try Self.mapper.map(try refused.pass(applying: nil), template: refused)
        }
        #expect(error?.description.contains("event-ticket/google.json: classId \"midnight echo\"") == true,
                "\(String(describing: error))")
    }

    @Test("a delayed flight keeps its scheduled times and class; the delay is Google's estimated time")
    func delayedFlight() throws {
        let template = try Self.template("semantic-boarding-pass", google: nil)
        // Another flight than the template's (its class is made from the pass's data), on time and then delayed
        // (an override replaces the whole semantics object).
        let pass = try #require(try JSONSerialization.jsonObject(with: template.passJSON) as? [String: Any])
        var semantics = try #require(pass["semantics"] as? [String: Any])
        semantics["flightNumber"] = 5678
        semantics["flightCode"] = "TA5678"
        func mapped(_ semantics: [String: Any]) throws -> GoogleWalletPass {
            try Self.mapper.map(try template.pass(applying: PassData(overrides: [
                "semantics": try JSONValue(jsonData: try JSONSerialization.data(withJSONObject: semantics)),
            ])), template: template)
        }
        let onTime = try mapped(semantics)
        #expect(onTime.classId.hasSuffix("_TA5678_20261205"), "\(onTime.classId)")
        #expect(onTime.classJSON["localEstimatedOrActualDepartureDateTime"] == nil)
        semantics["currentDepartureDate"] = "2026-12-06T01:10-08:00"
        semantics["currentArrivalDate"] = "2026-12-06T09:40-05:00"
        let delayed = try mapped(semantics)
        #expect(delayed.classId == onTime.classId)
        #expect(delayed.classJSON["localScheduledDepartureDateTime"]?.stringValue == "2026-12-05T08:00:00")
        #expect(delayed.classJSON["localEstimatedOrActualDepartureDateTime"]?.stringValue == "2026-12-06T01:10:00")
        #expect(delayed.classJSON["localScheduledArrivalDateTime"]?.stringValue == "2026-12-05T16:35:00")
        #expect(delayed.classJSON["localEstimatedOrActualArrivalDateTime"]?.stringValue == "2026-12-06T09:40:00")
    }
}
