import Foundation
import PassModel
import Testing

/// The iOS 26 and 27 top-level keys: typed, round-tripping, and checked.
@Suite("Pass: iOS 26 and 27 keys")
struct PassModelAdditionsTests {
    static let boardingLinks = [
        "changeSeatURL", "entertainmentURL", "purchaseAdditionalBaggageURL", "purchaseLoungeAccessURL",
        "purchaseWifiURL", "upgradeURL", "managementURL", "registerServiceAnimalURL", "reportLostBagURL",
        "requestWheelchairURL", "transitProviderWebsiteURL",
    ]

    static var posterGeneric: JSONValue {
        var json = Fixtures.eventTicket
        json["eventTicket"] = nil
        json["generic"] = ["primaryFields": [["key": "name", "value": "Finley"]]]
        json["posterGeneric"] = [
            "headerFields": [["key": "member", "label": "MEMBER", "value": "D-1"]],
            "primaryFields": [["key": "name", "value": "Finley"]],
            "footerFields": [["key": "footer", "value": "Example Day Care"]],
        ]
        json["featuredActions"] = [
            ["identifier": "offers", "type": "membershipBenefits", "url": "https://example.com/offers"],
        ]
        json["logoSymbolName"] = "pawprint.fill"
        return json
    }

    @Test func everyNewKeyIsTypedAndRoundTrips() throws {
        var json = Self.posterGeneric
        for key in Self.boardingLinks { json[key] = .string("https://example.com/\(key)") }
        json["transitProviderEmail"] = "help@example.com"
        json["transitProviderPhoneNumber"] = "+1 555 0100"
        json["featuredActions"] = [
            ["identifier": "offers", "type": "membershipBenefits", "url": "https://example.com/offers"],
            ["identifier": "map", "type": "place", "placeIdentifier": "I63C5F1A2"],
        ]
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(pass.unknownKeys.isEmpty, "\(pass.unknownKeys.keys)")
        #expect(pass.posterGeneric?.footerFields?.first?.key == "footer")
        #expect(pass.featuredActions == [
            PassFeaturedAction(identifier: "offers", type: "membershipBenefits", url: "https://example.com/offers"),
            PassFeaturedAction(identifier: "map", type: "place", placeIdentifier: "I63C5F1A2"),
        ])
        #expect(pass.logoSymbolName == "pawprint.fill")
        #expect(pass.requestWheelchairURL == "https://example.com/requestWheelchairURL")
        #expect(pass.transitProviderEmail == "help@example.com")
        #expect(try pass.json() == json)
        // The template's member-by-member encoder writes the same document.
        let template = try PassTemplate(name: "poster", passJSON: Fixtures.data(json), files: Fixtures.iconFiles)
        #expect(try JSONValue(jsonData: template.passJSON(for: pass)) == json)
        let report = Fixtures.validate(json)
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func dataFillsPosterGenericFieldsByKey() throws {
        let template = try PassTemplate(name: "poster", passJSON: Fixtures.data(Self.posterGeneric), files: Fixtures.iconFiles)
        let pass = try template.pass(applying: PassData(fields: ["name": "Rex", "footer": "Other Day Care"]))
        #expect(pass.posterGeneric?.primaryFields?.first?.value == .string("Rex"))
        #expect(pass.generic?.primaryFields?.first?.value == .string("Rex"))
        #expect(pass.posterGeneric?.footerFields?.first?.value == .string("Other Day Care"))
    }

    @Test func posterGenericAloneWarnsAboutEarlierIOS() {
        let report = Fixtures.validate(Self.posterGeneric.setting(["generic"], to: nil))
        #expect(report.exactly(
            .warning, "posterGeneric",
            "iOS 26 and earlier cannot add a pass whose only style is posterGeneric; add generic beside it"))
        #expect(report.isValid, "\(report.errors)")
    }

    @Test func posterGenericGoesOnlyWithGeneric() {
        let json = Self.posterGeneric.setting(["generic"], to: nil).setting(["storeCard"], to: [:])
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .error, "posterGeneric", "goes only with generic (the style earlier iOS versions show), found storeCard"))
    }

    @Test func posterGenericFieldsAreChecked() {
        let json = Self.posterGeneric.setting(["posterGeneric", "primaryFields", 0, "value"], to: nil)
        #expect(Fixtures.validate(json).exactly(.error, "posterGeneric.primaryFields[0].value", "required key is missing"))
        let footer = Fixtures.eventTicket.setting(["eventTicket", "footerFields"], to: [["key": "f", "value": "x"]])
        #expect(Fixtures.validate(footer).exactly(
            .warning, "eventTicket.footerFields", "only posterGeneric shows footerFields; Wallet ignores them"))
    }

    @Test func featuredActionRules() {
        let json = Self.posterGeneric.setting(["featuredActions"], to: [
            ["identifier": "a", "type": "membershipBenefits", "url": "not a url"],
            ["identifier": "a", "type": "directions"],
            ["type": "membershipBenefits", "url": "https://example.com"],
        ])
        let report = Fixtures.validate(json)
        #expect(report.exactly(
            .warning, "featuredActions", "Wallet shows at most 2 featured actions; found 3, Wallet ignores the rest"))
        #expect(report.exactly(.error, "featuredActions[0].url", "must be a URL such as https://example.com/page, found \"not a url\""))
        #expect(report.exactly(.error, "featuredActions[1].identifier", "duplicate identifier \"a\", also used at featuredActions[0]"))
        #expect(report.exactly(.error, "featuredActions[1]", "needs the value its type acts on: url or placeIdentifier"))
        #expect(report.exactly(.error, "featuredActions[2].identifier", "required key is missing"))
        #expect(report.has(.warning, "featuredActions[1].type", "unknown action type \"directions\", expected one of viewSchedule,"))
        #expect(report.errors.count == 4, "\(report.errors)")
    }

    @Test func linksAndEmailsAreChecked() {
        var json = Fixtures.eventTicket
        json["bagPolicyURL"] = "example.com/bags"
        json["upgradeURL"] = "ftp://example.com/upgrade"
        json["contactVenueEmail"] = "tickets at example.com"
        json["transitProviderEmail"] = "help@example"
        json["logoSymbolName"] = " "
        let report = Fixtures.validate(json)
        #expect(report.exactly(.error, "bagPolicyURL", "must be a URL such as https://example.com/page, found \"example.com/bags\""))
        #expect(report.exactly(.error, "upgradeURL", "must be a URL such as https://example.com/page, found \"ftp://example.com/upgrade\""))
        #expect(report.exactly(
            .error, "contactVenueEmail", "must be an email address such as tickets@example.com, found \"tickets at example.com\""))
        #expect(report.exactly(
            .error, "transitProviderEmail", "must be an email address such as tickets@example.com, found \"help@example\""))
        #expect(report.exactly(.error, "logoSymbolName", "must not be empty"))
        #expect(report.errors.count == 5, "\(report.errors)")
    }

    @Test func posterImagesHaveTheirDocumentedSizes() {
        let files = Fixtures.iconFiles.merging([
            "artwork@2x.png": Fixtures.png(width: 700, height: 896), "primaryLogo.png": Fixtures.png(width: 130, height: 30),
            "secondaryLogo@3x.png": Fixtures.png(width: 405, height: 36),
        ]) { $1 }
        let report = Fixtures.validate(Self.posterGeneric, files: files)
        #expect(report.exactly(
            .warning, "artwork@2x.png", "is 700×896 pixels; expected 716×896 (358×448 points at @2x)"))
        #expect(report.exactly(
            .warning, "primaryLogo.png", "is 130×30 pixels; at most 126×30 (126×30 points) is shown"))
        #expect(report.issues(at: "secondaryLogo@3x.png").isEmpty)
    }
}
