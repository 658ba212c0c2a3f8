import Foundation
import PassModel
import Testing

/// `upcomingPassInformation` (iOS 26 multi-event tickets): typed, round-tripping and checked member by member.
@Suite("Pass: upcoming events")
struct UpcomingPassInformationTests {
    static let hash = String(repeating: "0123456789abcdef", count: 4)

    /// An entry using every documented member.
    static var fullEntry: JSONValue {
        [
            "identifier": "day-2", "name": "Festival, day 2", "type": "event", "isActive": true,
            "dateInformation": [
                "date": "2026-07-18T18:30-07:00", "timeZone": "America/Los_Angeles", "ignoreTimeComponents": false,
                "isAllDay": false, "isUnannounced": false, "isUndetermined": false,
            ],
            "images": [
                "headerImage": [
                    "URLs": [
                        ["URL": "https://cdn.example.com/day2.png", "SHA256": .string(hash), "scale": 1, "size": 48_000],
                        ["URL": "https://cdn.example.com/day2@2x.png", "SHA256": .string(hash), "scale": 2, "size": 96_000],
                    ]
                ],
                "venueMap": ["reuseExisting": true],
            ],
            "URLs": [
                "bagPolicyURL": "https://example.com/bags", "merchandiseURL": "https://example.com/shop",
                "contactVenueEmail": "hall@example.com", "contactVenuePhoneNumber": "+1 555 0100",
            ],
            "additionalInfoFields": [["key": "parking", "label": "PARKING", "value": "Lot B"]],
            "backFields": [["key": "terms", "label": "TERMS", "value": "No re-entry."]],
            "auxiliaryStoreIdentifiers": [123_456_789],
            "semantics": [
                "venueName": "Example Hall", "venueLocation": ["latitude": 37.33, "longitude": -122.01],
                "performerNames": ["The Band"], "seats": [["seatSection": "100", "seatRow": "F"]],
            ],
        ]
    }

    static func validate(_ entries: JSONValue) -> ValidationReport {
        Fixtures.validate(Fixtures.eventTicket.setting(["upcomingPassInformation"], to: entries))
    }

    @Test func everyMemberIsTypedAndRoundTrips() throws {
        let json = Fixtures.eventTicket.setting(["upcomingPassInformation"], to: [Self.fullEntry])
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(pass.unknownKeys.isEmpty, "\(pass.unknownKeys.keys)")
        let entry = try #require(pass.upcomingPassInformation?.first)
        #expect(entry.unknownKeys.isEmpty, "\(entry.unknownKeys.keys)")
        #expect(entry.identifier == "day-2")
        #expect(entry.isActive == true)
        #expect(entry.dateInformation?.timeZone == "America/Los_Angeles")
        #expect(entry.images?.headerImage?.urls?[1] == UpcomingPassInformationEntry.ImageURLEntry(
            url: "https://cdn.example.com/day2@2x.png", sha256: Self.hash, scale: 2, size: 96_000))
        #expect(entry.images?.venueMap?.reuseExisting == true)
        #expect(entry.urls?.contactVenueEmail == "hall@example.com")
        #expect(entry.urls?.bagPolicyURL == "https://example.com/bags")
        #expect(entry.backFields?.first?.key == "terms")
        #expect(entry.auxiliaryStoreIdentifiers == [123_456_789])
        #expect(entry.semantics?.objectValue?["venueName"] == "Example Hall")
        #expect(try pass.json() == json)
        let template = try PassTemplate(name: "festival", passJSON: Fixtures.data(json), files: Fixtures.iconFiles)
        #expect(try JSONValue(jsonData: template.passJSON(for: pass)) == json)
        let report = Fixtures.validate(json)
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func unknownKeysAreKeptAtEveryLevel() throws {
        var entry = Self.fullEntry
        entry.set(["_id"], to: "E1")
        entry.set(["dateInformation", "note"], to: "doors first")
        entry.set(["images", "poster"], to: ["reuseExisting": true])
        entry.set(["images", "headerImage", "URLs", 0, "format"], to: "png")
        entry.set(["URLs", "ticketsURL"], to: "https://example.com/tickets")
        let json = Fixtures.eventTicket.setting(["upcomingPassInformation"], to: [entry])
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(try pass.json() == json)
        let report = Fixtures.validate(json)
        for path in [
            "upcomingPassInformation[0]._id", "upcomingPassInformation[0].dateInformation.note",
            "upcomingPassInformation[0].images.poster", "upcomingPassInformation[0].images.headerImage.URLs[0].format",
            "upcomingPassInformation[0].URLs.ticketsURL",
        ] {
            #expect(report.exactly(.warning, path, "unknown key, kept as is"), "\(path): \(report.issues)")
        }
        #expect(report.isValid, "\(report.errors)")
    }

    @Test func requiredMembersAndUniqueIdentifiers() {
        let report = Self.validate([
            ["identifier": "a", "name": "One", "type": "event"],
            ["identifier": "a", "name": " ", "type": "concert"],
            [:],
        ])
        #expect(report.exactly(
            .error, "upcomingPassInformation[1].identifier", "duplicate identifier \"a\", also used at upcomingPassInformation[0]"))
        #expect(report.exactly(.error, "upcomingPassInformation[1].name", "must not be empty"))
        #expect(report.exactly(
            .warning, "upcomingPassInformation[1].type", "unknown value \"concert\", expected event (the only type Apple documents)"))
        #expect(report.exactly(.error, "upcomingPassInformation[2].identifier", "required key is missing"))
        #expect(report.exactly(.error, "upcomingPassInformation[2].name", "required key is missing"))
        #expect(report.exactly(.error, "upcomingPassInformation[2].type", "required key is missing"))
        #expect(report.errors.count == 5, "\(report.errors)")
    }

    @Test func datesLinksImagesAndSemanticsAreCheckedAllAtOnce() {
        var entry = Self.fullEntry
        entry.set(["dateInformation", "date"], to: "18 July")
        entry.set(["dateInformation", "timeZone"], to: "Pacific")
        entry.set(["URLs", "bagPolicyURL"], to: "example.com/bags")
        entry.set(["URLs", "contactVenueEmail"], to: "hall at example.com")
        entry.set(["images", "headerImage", "URLs"], to: [
            ["URL": "http://cdn.example.com/a.png", "SHA256": "abc", "scale": 0, "size": 3_000_000],
            ["SHA256": .string(Self.hash.uppercased()), "scale": 2],
            ["URL": "https://cdn.example.com/c.png", "scale": 2, "size": 0],
        ])
        entry.set(["images", "venueMap"], to: [:])
        entry.set(["backFields", 0, "value"], to: nil)
        entry.set(["additionalInfoFields"], to: [["key": "x", "value": "1"], ["key": "x", "value": "2"]])
        entry.set(["auxiliaryStoreIdentifiers"], to: [0])
        entry.set(["semantics", "venueName"], to: 42)
        let report = Self.validate([entry])
        let base = "upcomingPassInformation[0]"
        let image = "\(base).images.headerImage.URLs"
        let expected: [(String, String)] = [
            ("\(base).dateInformation.timeZone", "must be an IANA time zone name such as America/Chicago, found \"Pacific\""),
            ("\(base).URLs.bagPolicyURL", "must be a URL such as https://example.com/page, found \"example.com/bags\""),
            ("\(base).URLs.contactVenueEmail", "must be an email address such as tickets@example.com, found \"hall at example.com\""),
            ("\(image)[0].URL", "must be an https URL; Wallet does not download images over http"),
            ("\(image)[0].SHA256", "must be the file's SHA-256 as 64 hexadecimal digits, found \"abc\""),
            ("\(image)[0].scale", "must be a positive number such as 1, 2 or 3, found 0.0"),
            ("\(image)[0].size", "is 3000000 bytes; Wallet downloads images of at most 2097152 bytes (2 MB)"),
            ("\(image)[1].URL", "required key is missing"),
            ("\(image)[2].SHA256", "required key is missing"),
            ("\(image)[2].size", "must be the file's size in bytes, found 0"),
            ("\(base).images.venueMap", "needs URLs with at least one image file, or reuseExisting set to true"),
            ("\(base).backFields[0].value", "required key is missing"),
            ("\(base).additionalInfoFields[1].key", "duplicate field key \"x\", also used at \(base).additionalInfoFields[0]"),
            ("\(base).auxiliaryStoreIdentifiers[0]", "must be a positive App Store identifier, found 0"),
            ("\(base).semantics.venueName", "expected a string, found number"),
        ]
        for (path, message) in expected {
            #expect(report.exactly(.error, path, message), "\(path): \(report.issues(at: path))")
        }
        #expect(report.has(.error, "\(base).dateInformation.date", "must be a W3C date: "))
        #expect(report.exactly(
            .warning, "\(image)[2].scale", "same scale as \(base).images.headerImage.URLs[1]; Wallet downloads only one file per scale"))
        #expect(report.errors.count == expected.count + 1, "\(report.errors)")
    }

    @Test func wrongTypesAreReportedWithTheirPath() {
        var entry = Self.fullEntry
        entry.set(["isActive"], to: "yes")
        entry.set(["images", "headerImage", "URLs", 0, "size"], to: "48 kB")
        entry.set(["URLs", "sellURL"], to: 7)
        let report = Self.validate([entry])
        #expect(report.has(.error, "upcomingPassInformation[0].isActive", "expected a boolean"))
        #expect(report.has(.error, "upcomingPassInformation[0].images.headerImage.URLs[0].size", "expected"))
        #expect(report.has(.error, "upcomingPassInformation[0].URLs.sellURL", "expected a string"))
    }

    @Test func otherSpellingsAndStylesAreWarnings() {
        var entry = Self.fullEntry
        entry.set(["urls"], to: ["bagPolicyURL": "https://example.com/bags"])
        entry.set(["images", "headerImage", "URLs", 0, "sha256"], to: .string(Self.hash))
        entry.set(["images", "venueMap", "URLs"], to: [["URL": "https://cdn.example.com/map.png", "SHA256": .string(Self.hash)]])
        entry.set(["semantics", "departureLocationTimeZone"], to: "America/Chicago")
        var json = Fixtures.eventTicket.setting(["upcomingPassInformation"], to: [entry])
        json["generic"] = json["eventTicket"]
        json["eventTicket"] = nil
        let report = Fixtures.validate(json)
        #expect(report.exactly(.warning, "upcomingPassInformation[0].urls", "Apple spells this key URLs; Wallet ignores urls"))
        #expect(report.exactly(
            .warning, "upcomingPassInformation[0].images.headerImage.URLs[0].sha256",
            "Apple spells this key SHA256; Wallet ignores sha256"))
        #expect(report.exactly(
            .warning, "upcomingPassInformation[0].images.venueMap.URLs",
            "ignored: reuseExisting is true, so Wallet shows the pass's own image"))
        #expect(report.exactly(
            .warning, "upcomingPassInformation[0].semantics.departureLocationTimeZone",
            "Apple spells this tag departureAirportTimeZone; Tessera writes it as departureAirportTimeZone"))
        #expect(report.exactly(
            .warning, "upcomingPassInformation", "Wallet shows upcoming events only on event tickets; a generic pass ignores them"))
        #expect(report.isValid, "\(report.errors)")
    }

    @Test func entryNamesAndFieldsAreLocalizationKeys() {
        var entry = Self.fullEntry
        entry.set(["name"], to: "DAY_2")
        entry.set(["backFields", 0, "label"], to: "TERMS_LABEL")
        var files = Fixtures.iconFiles
        files["en.lproj/pass.strings"] = Data(#""DAY_2" = "Day 2"; "TERMS_LABEL" = "Terms";"#.utf8)
        files["fr.lproj/pass.strings"] = Data(#""DAY_2" = "Jour 2";"#.utf8)
        let report = Fixtures.validate(Fixtures.eventTicket.setting(["upcomingPassInformation"], to: [entry]), files: files)
        #expect(report.exactly(
            .warning, "fr.lproj/pass.strings",
            "missing key \"TERMS_LABEL\" (used by upcomingPassInformation[0].backFields[0].label)"))
        #expect(report.issues.count == 1, "\(report.issues)")
    }
}
