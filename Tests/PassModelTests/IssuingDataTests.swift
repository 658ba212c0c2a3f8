import Foundation
import PassModel
import Testing

/// Data documents and CSV columns as an issuer writes them: the text under the barcode, column rules, duplicate
/// keys and every problem reported at once.
@Suite("Issuing data: barcode text, columns, duplicate keys, full reports")
struct IssuingDataTests {
    /// A template whose barcode text equals its message (a placeholder) and a second barcode with a formatted text.
    func template() throws -> PassTemplate {
        var json = Fixtures.eventTicket
        json["barcodes"] = [
            ["format": "PKBarcodeFormatQR", "message": "TICKET-0001", "messageEncoding": "iso-8859-1", "altText": "TICKET-0001"],
            ["format": "PKBarcodeFormatCode128", "message": "TICKET-0001", "messageEncoding": "iso-8859-1", "altText": "T 0001"],
        ]
        return try PassTemplate(name: "ticket", passJSON: Fixtures.data(json), files: Fixtures.iconFiles)
    }

    /// The same pass through the typed path and through the JSON tree (an array override forces it).
    func applied(_ overrides: [String: JSONValue]) throws -> [Pass] {
        let template = try template()
        let typed = try template.pass(applying: PassData(overrides: overrides))
        var general = overrides
        general["associatedStoreIdentifiers"] = [1]
        let merged = try template.pass(applying: PassData(overrides: general))
        let fromJSON = try Pass(jsonData: template.passJSON(applying: PassData(overrides: general)))
        return [typed, merged, fromJSON]
    }

    @Test func altTextFollowsANewMessage() throws {
        for pass in try applied(["barcodeMessage": "E-1042"]) {
            #expect(pass.barcodes?.map(\.message) == ["E-1042", "E-1042"])
            // The placeholder followed the message; the formatted text written for the old message is gone.
            #expect(pass.barcodes?[0].altText == "E-1042")
            #expect(pass.barcodes?[1].altText == nil)
        }
    }

    @Test func barcodeAltTextSetsOrRemovesTheText() throws {
        for pass in try applied(["barcodeMessage": "E-1042", "barcodeAltText": "Seat 14C"]) {
            #expect(pass.barcodes?.map(\.altText) == ["Seat 14C", "Seat 14C"])
            #expect(pass.unknownKeys["barcodeAltText"] == nil)
        }
        for pass in try applied(["barcodeAltText": ""]) {
            #expect(pass.barcodes?.map(\.altText) == [nil, nil])
            #expect(pass.barcodes?.map(\.message) == ["TICKET-0001", "TICKET-0001"])
        }
        #expect { try template().pass(applying: PassData(overrides: ["barcodeAltText": 5])) } throws: {
            "\($0)".contains("barcodeAltText") && "\($0)".contains("expected a string")
        }
    }

    @Test func unknownHeadersAreRefusedWithTheNearestName() throws {
        let template = try template()
        #expect { try PassDataColumns(header: ["serialnumber", "feilds.seat", "fields.nope", "color"], template: template) } throws: { error in
            let text = "\(error)"
            return text.contains("\"serialnumber\": not a known column (did you mean \"serialNumber\"?)")
                && text.contains("\"feilds.seat\": not a known column (did you mean \"fields.seat\"?)")
                && text.contains("\"fields.nope\": the template \"ticket\" has no field \"nope\"")
                && text.contains("column 4 \"color\"")
        }
        #expect(throws: PassDataColumns.HeaderError.self) {
            try PassDataColumns(header: ["serialNumber", "serialNumber"], template: template)
        }
        #expect(throws: PassDataColumns.HeaderError.self) {
            try PassDataColumns(header: ["serialNumber", "passTypeIdentifier"], template: template)
        }
    }

    @Test func rowsHaveExactlyTheHeadersCells() throws {
        let columns = try PassDataColumns(
            header: ["serialNumber", "barcodeMessage", "fields.seat", "barcodeAltText", "voided", "locations", "logoText"],
            template: template())
        func row(_ cells: [String]) -> Result<PassData, PassModelError> { columns.data(cells: cells) }
        #expect(try row(["S1", "M1"]).failureReason?.contains("missing \"fields.seat\", \"barcodeAltText\"") == true)
        #expect(try row(["S1", "M1", "1A", "", "false", "", "", "EXTRA"]).failureReason?.contains("1 extra cell") == true)
        #expect(row(["", "M1", "1A", "", "false", "", ""]).failureReason?.contains("\"serialNumber\" is empty") == true)
        #expect(row(["S1", "", "1A", "", "false", "", ""]).failureReason?.contains("\"barcodeMessage\" is empty") == true)
        #expect(row(["S1", "M1", "1A", "", "maybe", "", ""]).failureReason?.contains("\"voided\": expected true or false") == true)

        let data = try row(["S1", "M1", "", "", "true", #"[{"latitude":1,"longitude":2}]"#, ""]).get()
        #expect(data.overrides["serialNumber"] == "S1")
        #expect(data.fields["seat"] == "")  // an empty field cell is an empty value
        #expect(data.overrides["barcodeAltText"] == .null)  // no text under the barcode
        #expect(data.overrides["voided"] == true)
        #expect(data.overrides["locations"] == [["latitude": 1, "longitude": 2]])
        #expect(data.overrides["logoText"] == .null)  // an empty pass.json cell removes the key
    }

    @Test func duplicateKeysAreErrorsWithBothPositions() throws {
        let text = """
        {
          "formatVersion": 1,
          "eventTicket": {"primaryFields": [{"key": "a", "value": "x", "key": "b"}]},
          "formatVersion": 2
        }
        """
        let report = PassValidator().validate(passJSON: Data(text.utf8), files: Fixtures.iconFiles)
        #expect(report.has(.error, "formatVersion", "line 2, column 3 and line 4, column 3"))
        #expect(report.has(.error, "eventTicket.primaryFields[0].key", "line 3, column 38 and line 3, column 64"))
        #expect { try PassTemplate(name: "dup", passJSON: Data(text.utf8)) } throws: {
            "\($0)".contains("\"formatVersion\" appears twice")
        }
        // Escaped spellings of one key are the same key; the same key in two objects is not a duplicate.
        let escaped = #"{"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}], "\u0064": 1, "d": 2}"#
        #expect(PassValidator().validate(passJSON: Data(escaped.utf8), files: [:]).has(.error, "d", "appears twice"))
        #expect(PassValidator().validate(passJSON: Data(escaped.utf8), files: [:]).issues(at: "k").isEmpty)
    }

    @Test func everyTypeErrorAtOnce() throws {
        let template = try template()
        let data = PassData(
            overrides: ["formatVersion": "1", "voided": "yes", "maxDistance": "far", "backgroundColor": "blue"],
            fields: ["nope": "x", "doors": "tomorrow"])
        #expect(throws: PassModelError.self) { try template.pass(applying: data) }
        let report = template.report(applying: data)
        for path in ["formatVersion", "voided", "maxDistance", "backgroundColor", "fields.nope", "fields.doors"] {
            #expect(!report.issues(at: path).isEmpty, "\(path) in \(report.issues)")
        }

        var json = Fixtures.eventTicket
        json["formatVersion"] = "1"
        json["voided"] = "yes"
        json["maxDistance"] = "far"
        #expect { try PassTemplate(name: "t", passJSON: Fixtures.data(json)) } throws: { error in
            let text = "\(error)"
            return text.contains("3 values of the wrong type") && text.contains("voided") && text.contains("maxDistance")
        }
    }
}

extension IssuingDataTests {
    @Test func aTemplateWithValuesOfTheWrongTypeReportsEveryOtherProblemToo() throws {
        var json = Fixtures.eventTicket
        json["formatVersion"] = "1"
        json["voided"] = "yes"
        json["maxDistance"] = "far"
        json["backgroundColor"] = "blue"
        json["someUndocumentedKey"] = "x"
        // Without an icon: the files are checked with the rest of the pass.
        var thrown: PassModelError?
        do {
            _ = try PassTemplate(name: "t", passJSON: Fixtures.data(json), files: [:])
        } catch let error as PassModelError {
            thrown = error
        }
        let error = try #require(thrown)
        #expect(error.code == .invalidPass)
        let report = ValidationReport(issues: error.issues)
        #expect(report.has(.error, "formatVersion", "expected an integer, found string"), "\(error.issues)")
        #expect(report.has(.error, "voided", "expected a boolean, found string"))
        #expect(report.has(.error, "maxDistance", "found string"))
        #expect(report.has(.error, "backgroundColor", "must be a colour written rgb(r, g, b), found \"blue\""))
        #expect(report.has(.error, "icon.png", "required image is missing"))
        #expect(report.has(.warning, "someUndocumentedKey", "unknown key"))
        #expect(report.errors.count == 5, "\(report.errors)")
        for line in [
            "t/pass.json: 3 values of the wrong type; 5 errors and 1 warning in all:",
            "  error: backgroundColor: must be a colour", "  error: icon.png:", "  warning: someUndocumentedKey:",
        ] {
            #expect(error.reason.contains(line), "\(line) in \(error.reason)")
        }
    }
}

extension Result where Failure == PassModelError {
    var failureReason: String? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}
