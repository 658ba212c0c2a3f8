import Foundation
import PassModel
import Testing

/// Poster event tickets and semantic boarding passes: Apple's requirements as errors, its recommendations
/// as warnings, and the classic-layout explanation.
@Suite("PassValidator: preferredStyleSchemes")
struct StyleSchemeValidationTests {
    static let posterReason = "required for a poster event ticket (preferredStyleSchemes lists posterEventTicket)"
    static let boardingReason = "required for a semantic boarding pass (preferredStyleSchemes lists semanticBoardingPass)"

    /// A poster event ticket with everything Apple's validator asks for.
    static var posterTicket: JSONValue {
        var json = Fixtures.eventTicket
        json["preferredStyleSchemes"] = ["posterEventTicket", "eventTicket"]
        json["nfc"] = ["message": "E-0001", "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgACp0l4qKJnWbUAkuUu8Qa8kHr8CBQMhNLe5lYX9PUVJfs=", "requiresAuthentication": true]
        json["semantics"] = [
            "eventName": "The Band", "venueName": "Example Hall", "eventType": "PKEventTypeLivePerformance",
            "performerNames": ["The Band"], "artistIDs": ["1234"],
            "eventStartDate": "2026-05-07T19:30-05:00", "eventEndDate": "2026-05-07T23:00-05:00",
            "seats": [["seatSection": "B", "seatRow": "12", "seatNumber": "4"]],
        ]
        return json
    }

    static var posterFiles: [String: Data] {
        Fixtures.iconFiles.merging(["artwork.png": Fixtures.png(width: 358, height: 448)]) { $1 }
    }

    /// A semantic boarding pass with everything Apple's validator asks for.
    static var semanticBoardingPass: JSONValue {
        [
            "formatVersion": 1, "passTypeIdentifier": "pass.com.example.air", "serialNumber": "B-1",
            "teamIdentifier": "A1B2C3D4E5", "organizationName": "Example Air", "description": "Boarding pass",
            "preferredStyleSchemes": ["semanticBoardingPass", "boardingPass"],
            "boardingPass": [
                "transitType": "PKTransitTypeAir",
                "primaryFields": [["key": "from", "value": "SFO"], ["key": "to", "value": "JFK"]],
            ],
            "semantics": [
                "airlineCode": "EX", "flightNumber": 123, "passengerName": ["givenName": "Jane", "familyName": "Doe"],
                "originalBoardingDate": "2026-12-05T07:30-08:00", "originalDepartureDate": "2026-12-05T08:00-08:00",
                "originalArrivalDate": "2026-12-05T16:30-05:00", "departureAirportCode": "SFO",
                "departureAirportTimeZone": "America/Los_Angeles", "departureCityName": "San Francisco",
                "destinationAirportCode": "JFK", "destinationAirportTimeZone": "America/New_York",
                "destinationCityName": "New York", "seats": [["seatNumber": "12A"]],
            ],
        ]
    }

    @Test func completePosterTicketHasNoIssues() {
        let report = Fixtures.validate(Self.posterTicket, files: Self.posterFiles)
        // The NFC warning is about the certificate, not the poster layout.
        #expect(report.issues.filter { $0.path != "nfc" }.isEmpty, "\(report.issues)")
    }

    @Test func posterTicketRequirementsAreErrors() {
        var json = Self.posterTicket
        json["nfc"] = nil
        json["semantics"] = ["eventType": "PKEventTypeSports"]
        let report = Fixtures.validate(json, files: Fixtures.iconFiles)
        let sports = "required for a poster event ticket whose semantics.eventType is PKEventTypeSports"
        #expect(report.exactly(.error, "nfc", Self.posterReason))
        #expect(report.exactly(.error, "semantics.eventName", Self.posterReason))
        #expect(report.exactly(.error, "semantics.venueName", Self.posterReason))
        #expect(report.exactly(.error, "semantics.awayTeamAbbreviation", sports))
        #expect(report.exactly(.error, "semantics.homeTeamAbbreviation", sports))
        #expect(report.exactly(
            .error, "artwork.png",
            "a poster event ticket needs an artwork image (artwork.png) or a background image (background.png)"))
        #expect(report.exactly(
            .warning, "preferredStyleSchemes",
            "this pass will show the classic eventTicket layout instead of posterEventTicket because it lacks nfc, "
                + "semantics.eventName, semantics.venueName, semantics.awayTeamAbbreviation, "
                + "semantics.homeTeamAbbreviation and an artwork or background image"))
        #expect(report.errors.count == 6, "\(report.errors)")
    }

    @Test func posterTicketNeedsNFCAuthenticationAndPerformers() {
        var json = Self.posterTicket
        json.set(["nfc", "requiresAuthentication"], to: nil)
        json.set(["semantics", "performerNames"], to: [])
        json.set(["semantics", "artistIDs"], to: nil)
        let report = Fixtures.validate(json, files: Self.posterFiles)
        #expect(report.exactly(.error, "nfc.requiresAuthentication", Self.posterReason))
        #expect(report.exactly(
            .error, "semantics.performerNames",
            "required for a poster event ticket whose semantics.eventType is PKEventTypeLivePerformance"))
        #expect(report.exactly(
            .warning, "semantics.artistIDs",
            "recommended for a live performance: Wallet links the performers' Apple Music pages from it"))
        #expect(report.errors.count == 2, "\(report.errors)")
    }

    @Test func posterTicketEventTypeMustBeOneOfApples() {
        // Apple's constants (SemanticTags.eventType), each accepted on a poster event ticket.
        let apples = [
            "PKEventTypeGeneric", "PKEventTypeLivePerformance", "PKEventTypeMovie", "PKEventTypeSports",
            "PKEventTypeConference", "PKEventTypeConvention", "PKEventTypeWorkshop", "PKEventTypeSocialGathering",
        ]
        for eventType in apples {
            let json = Self.posterTicket.setting(["semantics", "eventType"], to: .string(eventType))
            #expect(Fixtures.validate(json, files: Self.posterFiles).issues(at: "semantics.eventType").isEmpty, "\(eventType)")
        }

        // Another value is an error naming the allowed ones, as in Apple's Pass Builder validator; one issue, not a
        // warning beside it.
        let concert = Self.posterTicket.setting(["semantics", "eventType"], to: "PKEventTypeConcert")
        let report = Fixtures.validate(concert, files: Self.posterFiles)
        let message: String = "unknown value \"PKEventTypeConcert\" on a poster event ticket (preferredStyleSchemes "
            + "lists posterEventTicket), expected one of " + apples.joined(separator: ", ")
        #expect(report.exactly(.error, "semantics.eventType", message))
        #expect(report.issues(at: "semantics.eventType").count == 1, "\(report.issues)")
        #expect(!report.isValid)

        // Without the poster layout it stays a warning.
        let classic = concert.setting(["preferredStyleSchemes"], to: nil)
        let classicReport = Fixtures.validate(classic, files: Self.posterFiles)
        #expect(classicReport.has(.warning, "semantics.eventType", "unknown value \"PKEventTypeConcert\", expected one of"))
        #expect(classicReport.isValid, "\(classicReport.errors)")
    }

    @Test func backgroundImageServesAsPosterArt() {
        let files = Fixtures.iconFiles.merging(["background@2x.png": Fixtures.png(width: 360, height: 440)]) { $1 }
        let report = Fixtures.validate(Self.posterTicket, files: files)
        #expect(report.issues(at: "artwork.png").isEmpty)
    }

    @Test func posterTicketRecommendationsAreWarnings() {
        var json = Self.posterTicket
        json.set(["semantics", "seats"], to: nil)
        json.set(["semantics", "eventEndDate"], to: "2026-05-07T18:00-05:00")
        let report = Fixtures.validate(json, files: Self.posterFiles)
        #expect(report.exactly(.warning, "semantics.seats", "recommended for a poster event ticket: Wallet shows the seat from it"))
        #expect(report.exactly(.warning, "semantics.eventEndDate", "is before semantics.eventStartDate"))
        #expect(report.isValid)
        #expect(report.issues(at: "preferredStyleSchemes").isEmpty)

        json.set(["semantics", "eventStartDate"], to: nil)
        let undated = Fixtures.validate(json, files: Self.posterFiles)
        #expect(undated.exactly(
            .warning, "semantics.eventStartDate", "recommended for a poster event ticket: Wallet shows the date from it"))
    }

    @Test func currencyCodeWithNumberStyleIsAWarning() {
        let json = Fixtures.eventTicket.setting(
            ["eventTicket", "secondaryFields", 1], to: ["key": "price", "value": 42, "currencyCode": "USD",
                "numberStyle": "PKNumberStyleDecimal"])
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .warning, "eventTicket.secondaryFields[1].currencyCode",
            "currencyCode and numberStyle together: Wallet shows the value as a currency amount and ignores numberStyle"))
    }

    @Test func completeSemanticBoardingPassHasNoIssues() {
        let report = Fixtures.validate(Self.semanticBoardingPass)
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func semanticBoardingPassRequirementsAreErrors() {
        let json = Self.semanticBoardingPass.setting(["semantics"], to: ["passengerName": [:]])
        let report = Fixtures.validate(json)
        let required = [
            "airlineCode", "flightNumber", "originalBoardingDate", "originalDepartureDate", "originalArrivalDate",
            "departureAirportCode", "departureAirportTimeZone", "destinationAirportCode", "passengerName",
        ]
        for key in required {
            #expect(report.exactly(.error, "semantics.\(key)", Self.boardingReason), "\(key)")
        }
        #expect(report.errors.count == required.count, "\(report.errors)")
        for key in ["departureCityName", "destinationCityName", "destinationAirportTimeZone", "seats"] {
            #expect(report.exactly(
                .warning, "semantics.\(key)", "recommended for a semantic boarding pass: Wallet shows it on the pass"))
        }
        #expect(report.has(
            .warning, "preferredStyleSchemes",
            "this pass will show the classic boardingPass layout instead of semanticBoardingPass because it lacks "
                + "semantics.airlineCode, semantics.flightNumber,"))
    }

    @Test func otherLibrariesSpellingCountsWithAWarning() throws {
        var json = Self.semanticBoardingPass
        json.set(["semantics", "departureAirportTimeZone"], to: nil)
        json.set(["semantics", "departureLocationTimeZone"], to: "America/Los_Angeles")
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .warning, "semantics.departureLocationTimeZone",
            "Apple spells this tag departureAirportTimeZone; Tessera writes it as departureAirportTimeZone"))
        #expect(report.issues(at: "semantics.departureAirportTimeZone").isEmpty)
        #expect(report.isValid)

        let written = try Pass(jsonData: Fixtures.data(json)).json()
        #expect(written["semantics"]?["departureAirportTimeZone"] == "America/Los_Angeles")
        #expect(written["semantics"]?["departureLocationTimeZone"] == nil)
    }

    @Test func schemeOnTheWrongStyle() {
        let json = Fixtures.eventTicket.setting(["preferredStyleSchemes"], to: ["semanticBoardingPass", "eventTicket"])
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .warning, "preferredStyleSchemes[0]",
            "semanticBoardingPass is a scheme for boardingPass passes, but this pass's style is eventTicket; Wallet ignores it"))
        #expect(report.exactly(
            .warning, "preferredStyleSchemes",
            "this pass will show the classic eventTicket layout because semanticBoardingPass is only for boardingPass passes"))
        #expect(report.isValid)
    }

    @Test func unknownSchemeIsAWarning() {
        let json = Fixtures.eventTicket.setting(["preferredStyleSchemes"], to: ["posterEvent", "eventTicket"])
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .warning, "preferredStyleSchemes[0]",
            "unknown value \"posterEvent\", expected one of posterEventTicket, eventTicket, semanticBoardingPass, "
                + "boardingPass; Wallet ignores it"))
        #expect(report.issues(at: "semantics.eventName").isEmpty)
    }

    @Test func classicSchemesAloneAskForNothing() {
        let json = Fixtures.eventTicket.setting(["preferredStyleSchemes"], to: ["eventTicket"])
        #expect(Fixtures.validate(json).issues.isEmpty)
    }
}

extension ValidationReport {
    /// Whether an issue of this severity is at `path` with exactly this message.
    func exactly(_ severity: ValidationIssue.Severity, _ path: String, _ message: String) -> Bool {
        issues.contains { $0.severity == severity && $0.path == path && $0.message == message }
    }
}
