import Foundation
import PassModel
import Testing

/// `featuredActions`: the type decides whether an action needs a `url` or a `placeIdentifier`.
@Suite("PassValidator: featured actions")
struct FeaturedActionTests {
    static func validate(_ actions: JSONValue) -> ValidationReport {
        Fixtures.validate(PassModelAdditionsTests.posterGeneric.setting(["featuredActions"], to: actions))
    }

    @Test func everyDocumentedTypeWithItsTargetIsClean() {
        for type in PassFeaturedAction.knownTypes {
            let action: JSONValue = type == "place"
                ? ["identifier": "a", "type": "place", "placeIdentifier": "I63C5F1A2"]
                : ["identifier": "a", "type": .string(type), "url": .string("https://example.com/\(type)")]
            let report = Self.validate([action])
            #expect(report.issues.isEmpty, "\(type): \(report.issues)")
        }
        #expect(Self.validate([["identifier": "c", "type": "call", "url": "tel:+1 (555) 010-0100"]]).issues.isEmpty)
    }

    @Test func aPlaceActionNeedsAPlaceIdentifier() {
        let report = Self.validate([
            ["identifier": "a", "type": "place", "url": "https://maps.example.com"],
            ["identifier": "b", "type": "place", "placeIdentifier": " "],
        ])
        #expect(report.exactly(
            .error, "featuredActions[0].placeIdentifier", "required for a place action (the Maps place it shows)"))
        #expect(report.exactly(
            .warning, "featuredActions[0].url", "a place action shows placeIdentifier in Maps; Wallet ignores url"))
        #expect(report.exactly(.error, "featuredActions[1].placeIdentifier", "must not be empty"))
        #expect(report.errors.count == 2, "\(report.errors)")
    }

    @Test func otherTypesNeedAURL() {
        let report = Self.validate([
            ["identifier": "a", "type": "shop", "placeIdentifier": "I63C5F1A2"],
            ["identifier": "b", "type": "call", "url": "tel:call-us"],
        ])
        #expect(report.exactly(.error, "featuredActions[0].url", "required for a shop action (the page it opens)"))
        #expect(report.exactly(
            .warning, "featuredActions[0].placeIdentifier", "only place actions use placeIdentifier; Wallet ignores it"))
        #expect(report.exactly(
            .error, "featuredActions[1].url",
            "must be a tel: URL with a phone number such as tel:+15550100, found \"tel:call-us\""))
        #expect(report.errors.count == 2, "\(report.errors)")
    }

    @Test func anUnknownTypeIsAWarningAndAMissingTypeAnError() {
        let report = Self.validate([
            ["identifier": "a", "type": "directions", "url": "https://example.com"],
            ["identifier": "b", "url": "https://example.com"],
        ])
        #expect(report.exactly(
            .warning, "featuredActions[0].type",
            "unknown action type \"directions\", expected one of " + PassFeaturedAction.knownTypes.joined(separator: ", ")
                + "; Wallet does not show it"))
        #expect(report.exactly(.error, "featuredActions[1].type", "required key is missing"))
        #expect(report.errors.count == 1, "\(report.errors)")
    }

    @Test func actionsRoundTripWithUnknownKeys() throws {
        let actions: JSONValue = [
            ["identifier": "a", "type": "place", "placeIdentifier": "I63C5F1A2", "_id": "X1"],
            ["identifier": "b", "type": "shop", "url": "https://example.com/shop"],
        ]
        let json = PassModelAdditionsTests.posterGeneric.setting(["featuredActions"], to: actions)
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(pass.featuredActions?[0].unknownKeys == ["_id": "X1"])
        #expect(try pass.json() == json)
    }
}
