import Foundation
import PassModel
import Testing

@Suite("Pass coding")
struct PassCodingTests {
    @Test func decodesTypedKeys() throws {
        let pass = try Pass(jsonData: Fixtures.data(Fixtures.eventTicket))
        #expect(pass.serialNumber == "E-0001")
        #expect(pass.formatVersion == 1)
        #expect(pass.style == .eventTicket)
        #expect(pass.fieldsOfStyle?.secondaryFields?[1].value == .integer(4))
        #expect(pass.fieldsOfStyle?.auxiliaryFields?[0].dateStyle == .short)
        #expect(pass.barcodes?.first?.format == .qr)
    }

    @Test func keepsUnknownKeysAndDatesOnRoundTrip() throws {
        var json = Fixtures.eventTicket
        json["futureKey"] = ["nested": [1, 2]]
        json["relevantDate"] = "2026-05-07T10:30-05:00"
        json.set(["eventTicket", "primaryFields", 0, "shinyNewOption"], to: true)
        json.set(["barcodes", 0, "extra"], to: "kept")
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(pass.unknownKeys["futureKey"] == ["nested": [1, 2]])
        #expect(pass.eventTicket?.primaryFields?[0].unknownKeys["shinyNewOption"] == true)

        let reencoded = try JSONValue(jsonData: pass.jsonData())
        #expect(reencoded == json)
        #expect(try Pass(jsonData: pass.jsonData()) == pass)
    }

    @Test func foundationCodersAgree() throws {
        var json = Fixtures.eventTicket
        json["userInfo"] = ["id": 7, "ratio": 0.25, "tags": ["a"], "ok": true]
        json["locations"] = [["latitude": 37.6189722, "longitude": -122.3748889]]
        json["mysteryKey"] = [1, "two"]
        let data = Fixtures.data(json)
        let viaFoundation = try JSONDecoder().decode(Pass.self, from: data)
        #expect(viaFoundation == (try Pass(jsonData: data)))
        #expect(try JSONValue(jsonData: JSONEncoder().encode(viaFoundation)) == json)
    }

    @Test func lenientEnumerationsKeepUnknownValues() throws {
        let json = Fixtures.eventTicket.setting(["barcodes", 0, "format"], to: "PKBarcodeFormatQRCode")
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(pass.barcodes?[0].format?.rawValue == "PKBarcodeFormatQRCode")
        #expect(pass.barcodes?[0].format?.isKnown == false)
    }

    @Test func typeErrorsNameThePath() {
        let json = Fixtures.eventTicket.setting(["eventTicket", "primaryFields", 0, "label"], to: 5)
        #expect {
            try Pass(jsonData: Fixtures.data(json))
        } throws: { error in
            "\(error)" == "eventTicket.primaryFields[0].label: expected a string, found number"
        }
    }

    @Test func wrongKindsNameTheKindFound() {
        let cases: [([Any], JSONValue, String)] = [
            (["serialNumber"], ["E-1"], "serialNumber: expected a string, found array"),
            (["eventTicket"], "x", "eventTicket: expected an object, found string"),
            (["barcodes"], ["format": "PKBarcodeFormatQR"], "barcodes: expected an array, found object"),
            (["voided"], 1, "voided: expected a boolean, found number"),
            (["eventTicket", "primaryFields", 0, "value"], true, "eventTicket.primaryFields[0].value: expected a string or a number, found boolean"),
            (["associatedStoreIdentifiers"], [1, nil], "associatedStoreIdentifiers[1]: expected an integer, found null"),
        ]
        for (path, value, message) in cases {
            #expect { try Pass(jsonData: Fixtures.data(Fixtures.eventTicket.setting(path, to: value))) } throws: { error in
                (error as? PassModelError)?.code == .invalidPass && "\(error)" == message
            }
        }
    }

    @Test func fractionalIntegersNameTheKey() {
        // JSONDecoder reports these as invalid JSON with no path; the model names the key instead.
        let version = Fixtures.eventTicket.setting(["formatVersion"], to: 1.5)
        #expect { try Pass(jsonData: Fixtures.data(version)) } throws: {
            "\($0)" == "formatVersion: expected an integer, found 1.5"
        }
        let identifiers = Fixtures.eventTicket.setting(["associatedStoreIdentifiers"], to: [123, 4.5])
        #expect { try Pass(json: identifiers) } throws: {
            "\($0)" == "associatedStoreIdentifiers[1]: expected an integer, found 4.5"
        }
        let report = Fixtures.validate(version.setting(["eventTicket", "primaryFields", 0, "row"], to: 0.5))
        #expect(report.has(.error, "formatVersion", "expected an integer, found 1.5"))
        #expect(report.has(.error, "eventTicket.primaryFields[0].row", "expected an integer, found 0.5"))
    }

    @Test func malformedJSONIsInvalidJSON() {
        #expect { try Pass(jsonData: Data("{\"formatVersion\": }".utf8)) } throws: {
            ($0 as? PassModelError)?.code == .invalidJSON && "\($0)".contains("line 1, column 19")
        }
    }

    @Test func styleIsNilWithSeveralStyles() throws {
        let json = Fixtures.eventTicket.setting(["coupon"], to: [:])
        let pass = try Pass(jsonData: Fixtures.data(json))
        #expect(pass.style == nil)
        #expect(pass.fieldsOfStyle == nil)
        #expect(pass.styles == [.coupon, .eventTicket])
    }

    @Test func w3cDates() {
        #expect(W3CDate.date(from: "2026-05-07T10:30-05:00") == W3CDate.date(from: "2026-05-07T15:30:00Z"))
        #expect(W3CDate.date(from: "2026-05-07T10:30:15.5+01:00") != nil)
        #expect(W3CDate.problem(with: "2026-05-07T10:30+0000")?.contains("colon") == true)
        #expect(W3CDate.problem(with: "2026-05-07T10:30")?.contains("time zone is missing") == true)
        #expect(W3CDate.problem(with: "2026-02-30T10:30Z") != nil)
        #expect(W3CDate.problem(with: "2026-05-07") != nil)
    }
}
