import Foundation
@testable import GoogleWallet
import PassModel
import Testing
import TesseraTestSupport

/// Every shipped template as a Google Wallet class and object, checked by Tessera's validator and, independently,
/// against Google's discovery document by `scripts/check-google.py`.
@Suite("Google Wallet mapping")
struct GoogleMappingTests {
    static let issuerId = "3388000000022222222"
    static let templates = ["event-ticket", "poster-event-ticket", "boarding-pass", "semantic-boarding-pass", "store-card",
                            "store-card-rewards", "coupon", "generic", "poster-generic"]
    static let expected: [String: GoogleVertical] = [
        "event-ticket": .eventTicket, "poster-event-ticket": .eventTicket, "boarding-pass": .flight,
        "semantic-boarding-pass": .flight, "store-card": .loyalty, "store-card-rewards": .loyalty, "coupon": .offer,
        "generic": .generic, "poster-generic": .generic,
    ]

    static func template(_ name: String) throws -> PassTemplate {
        try PassTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"))
    }

    static let mapper = GooglePassMapper(issuerId: issuerId) { name, _ in "https://tessera.example.com/google/images/\(name.count).png" }

    @Test(arguments: templates)
    func everyTemplateMapsAndPassesGooglesSchema(name: String) async throws {
        let template = try Self.template(name)
        let pass = try template.pass(applying: PassData(overrides: ["serialNumber": .string("G-\(name)")]))
        let mapped = try Self.mapper.map(pass, template: template)
        #expect(mapped.vertical == Self.expected[name])
        #expect(mapped.classId.hasPrefix(Self.issuerId + "."))
        #expect(mapped.objectId == "\(Self.issuerId).pass.dev.tessera.demo.G-2D\(name.replacingOccurrences(of: "-", with: "-2D"))")
        #expect(mapped.objectJSON["classId"]?.stringValue == mapped.classId)
        #expect(mapped.objectJSON["state"]?.stringValue == "ACTIVE")
        // Every member the mapping gives is one a patch clears when the pass stops giving it.
        let unclearable = (mapped.objectJSON.objectValue ?? [:]).keys
            .filter { !["id", "classId", "state"].contains($0) && !GoogleWalletClient.mappedObjectMembers.contains($0) }
        #expect(unclearable.isEmpty, "\(name): \(unclearable.sorted()) missing from GoogleWalletClient.mappedObjectMembers")
        let payload = GoogleSaveLink.payload(for: [mapped], content: .classesAndObjects)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("google-\(name)-\(UUID().uuidString).json")
        try payload.jsonData().write(to: file)
        let check = try await Subprocess.run("python3", [Subprocess.repositoryRoot.appendingPathComponent("scripts/check-google.py").path,
                                                        "payload", file.path])
        #expect(check.status == 0, "\(name): \(check.stdout)\(check.stderr)")
    }

    @Test func eventTicketCarriesSemanticsSeatsTranslationsAndBarcode() throws {
        let template = try Self.template("event-ticket")
        let mapped = try Self.mapper.map(try template.pass(applying: nil), template: template)
        let classJSON = mapped.classJSON, object = mapped.objectJSON
        #expect(classJSON["eventName"]?["defaultValue"]?["value"]?.stringValue == "The Midnight Echo")
        #expect(classJSON["venue"]?["name"]?["defaultValue"]?["value"]?.stringValue == "Tessera Arena")
        #expect(classJSON["dateTime"]?["start"]?.stringValue == "2026-12-05T19:30:00-08:00")
        #expect(object["seatInfo"]?["seat"]?["defaultValue"]?["value"]?.stringValue == "F")
        #expect(object["seatInfo"]?["row"]?["defaultValue"]?["value"]?.stringValue == "12")
        #expect(object["barcode"]?["type"]?.stringValue == "QR_CODE")
        #expect(object["barcode"]?["value"]?.stringValue == "TICKET-0001")
        #expect(object["hexBackgroundColor"]?.stringValue == "#2c1252")
        // A colour written #rrggbb (Wallet takes it, with a warning) is Google's form already: kept, not dropped.
        let red = try Self.mapper.map(
            try template.pass(applying: PassData(overrides: ["backgroundColor": .string("#FF0000")])), template: template)
        #expect(red.objectJSON["hexBackgroundColor"]?.stringValue == "#ff0000")
        #expect(object["validTimeInterval"]?["end"]?["date"]?.stringValue == "2026-12-06T02:00:00-08:00")
        let modules = object["textModulesData"]?.arrayValue ?? []
        let terms = modules.first { $0["id"]?.stringValue == "terms" }
        #expect(terms?["localizedHeader"]?["translatedValues"]?[0]?["language"]?.stringValue == "fr")
        #expect(terms?["localizedBody"]?["translatedValues"]?[0]?["value"]?.stringValue?.contains("Non remboursable") == true)
        // Seat, row, section, event, venue and date are shown by Google's own members, not repeated as text.
        #expect(!modules.contains { ["seat", "row", "section", "event", "venue", "date"].contains($0["id"]?.stringValue ?? "") })
    }

    @Test func aPassesOwnDataNeverChangesTheSharedClass() throws {
        // One coupon's own offer text and organization name: its object may show them, the class every holder
        // shares stays the template's.
        let template = try Self.template("coupon")
        let plain = try Self.mapper.map(try template.pass(applying: PassData(overrides: ["serialNumber": .string("C-1")])), template: template)
        let own = try template.pass(applying: PassData(overrides: [
            "serialNumber": .string("C-2"), "organizationName": .string("<b>Someone else</b>"),
        ]))
        let mapped = try Self.mapper.map(own, template: template)
        #expect(mapped.classId == plain.classId)
        #expect(mapped.classJSON == plain.classJSON, "\(mapped.classJSON)")
        #expect(!"\(mapped.classJSON)".contains("Someone else"))
    }

    @Test("a flight field without semantics is split at the airline's two-character designator, digits in it too")
    func flightFieldDesignators() throws {
        let template = try Self.template("boarding-pass")
        for (flight, carrier, number) in [("U2 1234", "U2", "1234"), ("9W123", "9W", "123"), ("BA 17", "BA", "17"),
                                          ("B61", "B6", "1"), ("AAL 100", "AAL", "100")] {
            let pass = try template.pass(applying: PassData(overrides: ["semantics": .null],
                                                            fields: ["flight": .string(flight)]))
            let header = try Self.mapper.map(pass, template: template).classJSON["flightHeader"]
            #expect(header?["carrier"]?["carrierIataCode"]?.stringValue == carrier, "\(flight)")
            #expect(header?["flightNumber"]?.stringValue == number, "\(flight)")
        }
    }

    @Test func flightClassIsPerFlightAndDate() throws {
        let template = try Self.template("semantic-boarding-pass")
        let mapped = try Self.mapper.map(try template.pass(applying: nil), template: template)
        #expect(mapped.classId == "\(Self.issuerId).semantic-2Dboarding-2Dpass_TA1234_20261205")
        #expect(mapped.classJSON["flightHeader"]?["carrier"]?["carrierIataCode"]?.stringValue == "TA")
        #expect(mapped.classJSON["flightHeader"]?["flightNumber"]?.stringValue == "1234")
        #expect(mapped.classJSON["origin"]?["airportIataCode"]?.stringValue == "SFO")
        #expect(mapped.classJSON["localScheduledDepartureDateTime"]?.stringValue == "2026-12-05T08:00:00")
        #expect(mapped.objectJSON["passengerName"]?.stringValue == "Jane Doe")
        #expect(mapped.objectJSON["reservationInfo"]?["confirmationCode"]?.stringValue == "ETKT123")
        #expect(mapped.objectJSON["boardingAndSeatingInfo"]?["seatNumber"]?.stringValue == "12A")
    }

    @Test func voidedAndRedeemedPassesChangeState() throws {
        let template = try Self.template("coupon")
        let voided = try Self.mapper.map(try template.pass(applying: PassData(overrides: ["voided": .bool(true)])), template: template)
        #expect(voided.objectJSON["state"]?.stringValue == "INACTIVE")
        let used = try Self.mapper.map(try template.pass(applying: nil), template: template, state: .completed)
        #expect(used.objectJSON["state"]?.stringValue == "COMPLETED")
    }

    @Test func aBrokenMappingReportsEveryProblemWithItsPath() throws {
        let source = try Self.template("store-card")
        var files = source.files
        files["google.json"] = Data(#"""
        {"class": {"programName": 5, "reviewStatus": "MAYBE", "colour": "red"},
         "object": {"state": "GONE", "textModulesData": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}}
        """#.utf8)
        let template = try PassTemplate(name: "broken-card", passJSON: source.passJSON, files: files)
        var pass = try template.pass(applying: nil)
        pass.barcodes = [PassBarcode(format: .i2of5, message: "1234567890", messageEncoding: "iso-8859-1")]
        // No public URL: the loyalty class's required logo cannot be given.
        let error = try #require(throws: GoogleWalletError.self) {
            try GooglePassMapper(issuerId: Self.issuerId).map(pass, template: template)
        }
        #expect(error.code == .invalidMapping)
        let paths = Set(error.issues.map(\.path))
        for path in ["loyaltyClasses[0].programName", "loyaltyClasses[0].reviewStatus", "loyaltyClasses[0].colour",
                     "loyaltyClasses[0].programLogo", "loyaltyObjects[0].state", "loyaltyObjects[0].textModulesData",
                     "barcodes[0].format"] {
            #expect(paths.contains(path), "missing \(path) in \(paths.sorted())")
        }
        let logo = error.issues.first { $0.path == "loyaltyClasses[0].programLogo" }
        #expect(logo?.message.contains("add \"programLogo\" to google.json's \"class\"") == true)
        // The template has a logo: what is missing is an address Google can fetch it from.
        #expect(logo?.message.contains("logo@3x.png becomes it once Google can fetch images by address (pass google --public-url") == true,
                "\(logo?.message ?? "")")
        #expect(error.issues.first { $0.path == "barcodes[0].format" }?.message.contains("PKBarcodeFormatI2of5") == true)
    }

    @Test func unknownGoogleJSONMembersAreRefused() throws {
        let source = try Self.template("generic")
        var files = source.files
        files["google.json"] = Data(#"{"classID": "x"}"#.utf8)
        let template = try PassTemplate(name: "typo", passJSON: source.passJSON, files: files)
        let error = try #require(throws: GoogleWalletError.self) { try Self.mapper.map(try template.pass(applying: nil), template: template) }
        #expect(error.code == .invalidOverrides)
        #expect(error.reason.contains("typo/google.json: unknown member \"classID\""))
    }

    @Test func theCommittedSchemaMatchesGooglesPublishedDocument() async throws {
        let check = try await Subprocess.run("python3", [Subprocess.repositoryRoot.appendingPathComponent("scripts/google-schema.py").path, "--check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}
