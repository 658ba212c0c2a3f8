import Foundation
import PassModel
import Testing

@Suite("PassValidator: semantics")
struct SemanticsValidationTests {
    static func validate(_ semantics: JSONValue) -> ValidationReport {
        Fixtures.validate(Fixtures.eventTicket.setting(["semantics"], to: semantics))
    }

    @Test func documentedTagsOfTheRightKindAreClean() {
        let report = Self.validate([
            "eventName": "The Band", "eventType": "PKEventTypeSports", "tailgatingAllowed": true,
            "venueLocation": ["latitude": 41.88, "longitude": -87.63], "duration": 5400,
            "totalPrice": ["amount": "42.50", "currencyCode": "USD"], "performerNames": ["A", "B"],
            "eventStartDateInfo": ["date": "2026-05-07T19:30-05:00", "timeZone": "America/Chicago", "unannounced": false],
            "passengerName": ["givenName": "Jane", "familyName": "Doe"],
            "passengerCapabilities": ["PKPassengerCapabilityPreBoarding"],
            "passengerEligibleSecurityPrograms": ["PKTransitSecurityProgramTSAPreCheck"],
            "departureAirportTimeZone": "America/Los_Angeles", "admissionLevel": "VIP", "boardingZone": "3",
            "venueDoorsOpenDate": "2026-05-07T18:30-05:00", "passengerServiceSSRs": ["WCHR"],
            "seats": [["seatSection": "B", "seatSectionColor": "rgb(10, 20, 30)"]],
            "wifiAccess": [["ssid": "Hall", "password": "secret"]],
        ])
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func everyTypeErrorIsReportedAtOnce() {
        let report = Self.validate([
            "eventName": 42, "venueLocation": ["latitude": "north"], "flightNumber": "123",
            "performerNames": "The Band", "seats": [["seatRow": 12]], "tailgatingAllowed": "yes",
            "eventStartDate": "May 7", "totalPrice": ["amount": 42.5, "currencyCode": "usd"],
            "departureAirportTimeZone": "Pacific Time", "passengerName": "Jane Doe",
        ])
        #expect(report.exactly(.error, "semantics.eventName", "expected a string, found number"))
        #expect(report.exactly(.error, "semantics.venueLocation.latitude", "expected a number, found string"))
        #expect(report.exactly(.error, "semantics.venueLocation.longitude", "required key is missing"))
        #expect(report.exactly(.error, "semantics.flightNumber", "expected a number, found string"))
        #expect(report.exactly(.error, "semantics.performerNames", "expected an array, found string"))
        #expect(report.exactly(.error, "semantics.seats[0].seatRow", "expected a string, found number"))
        #expect(report.exactly(.error, "semantics.tailgatingAllowed", "expected a boolean, found string"))
        #expect(report.has(.error, "semantics.eventStartDate", "must be a W3C date: "))
        #expect(report.exactly(.error, "semantics.totalPrice.amount", "expected a string, found number"))
        #expect(report.exactly(.error, "semantics.totalPrice.currencyCode", "must be an ISO 4217 code such as USD, found \"usd\""))
        #expect(report.exactly(
            .error, "semantics.departureAirportTimeZone",
            "must be an IANA time zone name such as America/Chicago, found \"Pacific Time\""))
        #expect(report.exactly(.error, "semantics.passengerName", "expected an object, found string"))
        #expect(report.errors.count == 12, "\(report.errors)")
    }

    @Test func unknownConstantsAndTagsAreWarnings() {
        let report = Self.validate([
            "eventType": "PKEventTypeConcert", "passengerCapabilities": ["PKPassengerCapabilityPreBoarding", "Lounge"],
            "favouriteColour": "blue", "seats": [["seatColour": "red"]],
        ])
        #expect(report.has(.warning, "semantics.eventType", "unknown value \"PKEventTypeConcert\", expected one of PKEventTypeGeneric,"))
        #expect(report.has(.warning, "semantics.passengerCapabilities[1]", "unknown value \"Lounge\""))
        #expect(report.exactly(.warning, "semantics.favouriteColour", "unknown semantic tag, kept as is"))
        #expect(report.exactly(.warning, "semantics.seats[0].seatColour", "unknown key, kept as is"))
        #expect(report.isValid)
    }

    /// The tags of Apple's SemanticTags reference (as Pass Builder models them), plus the iOS 18 and 26 tags
    /// Apple shows in its sessions (`eventLiveMessage`, `venuePlaceID`, `membershipProgramStatus`).
    static let documentedTags = [
        "additionalTicketAttributes", "admissionLevel", "admissionLevelAbbreviation", "airlineCode",
        "airlineLoungePlaceID", "albumIDs", "artistIDs", "attendeeName", "awayTeamAbbreviation", "awayTeamLocation",
        "awayTeamName", "balance", "boardingGroup", "boardingSequenceNumber", "boardingZone", "carNumber",
        "confirmationNumber", "currentArrivalDate", "currentBoardingDate", "currentDepartureDate",
        "departureAirportCode", "departureAirportName", "departureAirportSecurityPrograms", "departureAirportTimeZone",
        "departureCityName", "departureGate", "departureLocation", "departureLocationDescription", "departurePlatform",
        "departureStationName", "departureTerminal", "destinationAirportCode", "destinationAirportName",
        "destinationAirportSecurityPrograms", "destinationAirportTimeZone", "destinationCityName", "destinationGate",
        "destinationLocation", "destinationLocationDescription", "destinationPlatform", "destinationStationName",
        "destinationTerminal", "duration", "entranceDescription", "eventEndDate", "eventLiveMessage", "eventName",
        "eventStartDate", "eventStartDateInfo", "eventType", "flightCode", "flightNumber", "genre",
        "homeTeamAbbreviation", "homeTeamLocation", "homeTeamName", "internationalDocumentsAreVerified",
        "internationalDocumentsVerifiedDeclarationName", "leagueAbbreviation", "leagueName", "membershipProgramName",
        "membershipProgramNumber", "membershipProgramStatus", "originalArrivalDate", "originalBoardingDate",
        "originalDepartureDate", "passengerAirlineSSRs", "passengerCapabilities", "passengerEligibleSecurityPrograms",
        "passengerInformationSSRs", "passengerName", "passengerServiceSSRs", "performerNames", "playlistIDs",
        "priorityStatus", "seats", "securityScreening", "silenceRequested", "sportName", "tailgatingAllowed",
        "ticketFareClass", "totalPrice", "transitProvider", "transitStatus", "transitStatusReason", "vehicleName",
        "vehicleNumber", "vehicleType", "venueBoxOfficeOpenDate", "venueCloseDate", "venueDoorsOpenDate",
        "venueEntrance", "venueEntranceDoor", "venueEntranceGate", "venueEntrancePortal", "venueFanZoneOpenDate",
        "venueGatesOpenDate", "venueLocation", "venueName", "venueOpenDate", "venueParkingLotsOpenDate",
        "venuePhoneNumber", "venuePlaceID", "venueRegionName", "venueRoom", "wifiAccess",
    ]

    @Test func everyDocumentedTagIsTypedAndEveryWrongValueReportedAtOnce() {
        var semantics: [String: JSONValue] = [:]
        for tag in Self.documentedTags {
            guard let kind = PassSemanticTags.kinds[tag] else {
                Issue.record("\(tag) is not typed")
                continue
            }
            switch kind {
            case .string, .date, .timeZone, .enumeration: semantics[tag] = 1
            case .number, .boolean, .strings, .enumerations, .location, .personName, .currencyAmount, .eventDateInfo,
                .seats, .wifiNetworks:
                semantics[tag] = "x"
            }
        }
        let report = Self.validate(.object(semantics))
        for tag in Self.documentedTags {
            #expect(report.errors.contains { $0.path == "semantics.\(tag)" }, "\(tag): \(report.issues(at: "semantics.\(tag)"))")
        }
        #expect(report.errors.count == Self.documentedTags.count, "\(report.errors)")
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func semanticsMustBeAnObject() {
        let report = Self.validate(["eventName"])
        #expect(report.exactly(.error, "semantics", "expected an object, found array"))
    }

    @Test func loungePlaceIDsBecomesApplesTag() throws {
        let json = Fixtures.eventTicket.setting(["semantics"], to: ["loungePlaceIDs": ["I123", "I456"]])
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .warning, "semantics.loungePlaceIDs",
            "Apple spells this tag airlineLoungePlaceID; Tessera writes it as airlineLoungePlaceID"))
        let written = try Pass(jsonData: Fixtures.data(json)).json()
        #expect(written["semantics"] == ["airlineLoungePlaceID": "I123"])

        let both = Fixtures.eventTicket.setting(
            ["semantics"], to: ["departureLocationTimeZone": "Europe/Paris", "departureAirportTimeZone": "Europe/Rome"])
        #expect(Fixtures.validate(both).exactly(
            .warning, "semantics.departureLocationTimeZone",
            "Apple spells this tag departureAirportTimeZone, which is also present; this one is left out"))
        #expect(try Pass(jsonData: Fixtures.data(both)).json()["semantics"] == ["departureAirportTimeZone": "Europe/Rome"])
    }

    @Test func templatesWriteApplesSpellingToo() throws {
        let json = Fixtures.eventTicket.setting(["semantics"], to: ["destinationLocationTimeZone": "Asia/Tokyo"])
        let template = try PassTemplate(name: "t", passJSON: Fixtures.data(json), files: Fixtures.iconFiles)
        let written = try JSONValue(jsonData: template.passJSON(for: template.pass(applying: PassData())))
        #expect(written["semantics"] == ["destinationAirportTimeZone": "Asia/Tokyo"])
    }
}
