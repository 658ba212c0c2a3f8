import Foundation
import PassModel
import Testing

@Suite("PassValidator: bundle files")
struct PassValidatorFileTests {
    @Test func iconIsRequired() {
        let report = Fixtures.validate(Fixtures.eventTicket, files: [:])
        #expect(report.has(.error, "icon.png", "required image is missing"))
        #expect(Fixtures.validate(Fixtures.eventTicket, files: ["icon.png": png(29, 29)]).isValid)
        // Wallet needs the 1x icon even when the 2x and 3x ones are there.
        let onlyLarger = Fixtures.validate(Fixtures.eventTicket, files: ["icon@2x.png": png(58, 58), "icon@3x.png": png(87, 87)])
        #expect(onlyLarger.has(.error, "icon.png", "only icon@2x.png and icon@3x.png found"))
    }

    @Test func imagesMustBePNG() {
        var files = Fixtures.iconFiles
        files["logo.png"] = Data("not an image".utf8)
        files["fr.lproj/logo@2x.png"] = Data([0x89, 0x50])
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.error, "logo.png", "not a valid PNG image"))
        #expect(report.has(.error, "fr.lproj/logo@2x.png", "not a valid PNG image"))
    }

    /// A template's image whose header is right but whose rest is cut short or damaged would be signed into every
    /// pass and drawn by no device: the whole file is read.
    @Test func imagesAreReadWhole() {
        let whole = png(160, 50)
        var damaged = [UInt8](whole)
        damaged[damaged.count - 20] ^= 0xFF  // inside the image data: its chunk's checksum no longer holds
        var files = Fixtures.iconFiles
        files["logo.png"] = whole.prefix(whole.count - 12)  // no IEND
        files["logo@2x.png"] = Data(damaged)
        files["logo@3x.png"] = whole.prefix(33)  // the header alone
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.error, "logo.png", "not a valid PNG image: PNG file is truncated (no IEND chunk)"))
        #expect(report.has(.error, "logo@2x.png", "not a valid PNG image: PNG IDAT chunk has a wrong checksum"))
        #expect(report.has(.error, "logo@3x.png", "not a valid PNG image: PNG file has no image data"))
        files["logo.png"] = whole
        files["logo@2x.png"] = png(320, 100)
        files["logo@3x.png"] = png(480, 150)
        #expect(Fixtures.validate(Fixtures.eventTicket, files: files).isValid)
    }

    /// A file over the 16 MiB a verifier reads would make a signed pass that `pass verify` refuses: refused here too.
    @Test func filesOverTheEntryLimitAreRefused() {
        var files = Fixtures.iconFiles
        files["en.lproj/pass.strings"] = Data(repeating: 0x20, count: PassValidator.maximumFileSize + 1)
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.error, "en.lproj/pass.strings", "\(PassValidator.maximumFileSize + 1) bytes: larger than the 16 MiB"))
        files["en.lproj/pass.strings"] = Data(repeating: 0x20, count: PassValidator.maximumFileSize)
        #expect(Fixtures.validate(Fixtures.eventTicket, files: files).isValid)
    }

    /// A pass's own images replace some of its template's files; what was found for the others is taken over, and the
    /// replaced ones are read again: the report is the one the files would get read afresh.
    @Test func preparedFilesReuseWhatDidNotChange() throws {
        var template = Fixtures.iconFiles
        template["logo.png"] = png(160, 50)
        template["thumbnail.png"] = png(90, 90).prefix(40)  // broken in the template
        let base = PassValidator.PreparedFiles(files: template)
        var merged = template
        merged["thumbnail.png"] = png(90, 90)  // the pass's own, whole
        merged["logo.png"] = png(160, 50).prefix(60)  // the pass's own, cut short
        let pass = try Pass(jsonData: Fixtures.data(Fixtures.eventTicket))
        let reused = PassValidator().validate(pass: pass, prepared: PassValidator.PreparedFiles(files: merged, reusing: base))
        let fresh = PassValidator().validate(pass: pass, prepared: PassValidator.PreparedFiles(files: merged))
        #expect(reused.issues == fresh.issues)
        #expect(reused.has(.error, "logo.png", "not a valid PNG image"))
        #expect(reused.issues(at: "thumbnail.png").isEmpty)
        #expect(PassValidator().validate(pass: pass, prepared: base).has(.error, "thumbnail.png", "not a valid PNG image"))
    }

    @Test func imageNamesAndScales() {
        var files = Fixtures.iconFiles
        files["banner.png"] = png(10, 10)
        files["logo@4x.png"] = png(10, 10)
        files["notes.txt"] = Data("x".utf8)
        files["images/logo.png"] = png(10, 10)
        files["logo@3x.png"] = png(480, 150)
        files["de.lproj/logo@2x.png"] = png(320, 100)
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.warning, "banner.png", "not an image Wallet uses"))
        #expect(report.has(.warning, "logo@4x.png", "not an image Wallet uses"))
        #expect(report.has(.warning, "notes.txt", "not a pass file"))
        #expect(report.has(.warning, "images/logo.png", "not a pass file"))
        #expect(report.issues(at: "logo@3x.png").isEmpty)
        #expect(report.issues(at: "de.lproj/logo@2x.png").isEmpty)
        #expect(report.isValid)
    }

    @Test func imageSizes() {
        var files: [String: Data] = ["icon.png": png(30, 30), "icon@2x.png": png(76, 76), "icon@3x.png": png(87, 87)]
        files["logo@2x.png"] = png(400, 100)
        files["logo.png"] = png(100, 30)
        files["background@2x.png"] = png(360, 440)
        files["background.png"] = png(200, 200)
        files["thumbnail@2x.png"] = png(200, 180)
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.warning, "icon.png", "expected 29×29 (29×29 points) or 38×38"))
        #expect(report.issues(at: "icon@2x.png").isEmpty)
        #expect(report.issues(at: "icon@3x.png").isEmpty)
        #expect(report.has(.warning, "logo@2x.png", "at most 320×100 (160×50 points at @2x)"))
        #expect(report.issues(at: "logo.png").isEmpty)
        #expect(report.issues(at: "background@2x.png").isEmpty)
        #expect(report.has(.warning, "background.png", "expected 180×220"))
        #expect(report.has(.warning, "thumbnail@2x.png", "at most 180×180"))
    }

    @Test func stripSizeDependsOnStyle() {
        var files = Fixtures.iconFiles
        files["strip@2x.png"] = png(750, 196)
        #expect(Fixtures.validate(Fixtures.eventTicket, files: files).issues.isEmpty)
        var coupon = Fixtures.eventTicket
        coupon["coupon"] = coupon["eventTicket"]
        coupon["eventTicket"] = nil
        coupon.set(["coupon", "auxiliaryFields"], to: nil)
        #expect(Fixtures.validate(coupon, files: files).has(.warning, "strip@2x.png", "expected 750×288"))
    }

    @Test func imagesTheStyleDoesNotShow() {
        var files = Fixtures.iconFiles
        files["strip.png"] = png(375, 98)
        files["background.png"] = png(180, 220)
        files["thumbnail.png"] = png(90, 90)
        files["footer.png"] = png(286, 15)
        let event = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(event.has(.warning, "background.png", "event tickets with a strip image do not show background"))
        #expect(event.has(.warning, "thumbnail.png", "do not show thumbnail"))
        #expect(event.has(.warning, "footer.png", "eventTicket passes do not show a footer image"))

        var generic = Fixtures.eventTicket
        generic["generic"] = generic["eventTicket"]
        generic["eventTicket"] = nil
        generic.set(["generic", "auxiliaryFields"], to: nil)
        let report = Fixtures.validate(generic, files: ["icon.png": png(29, 29), "strip.png": png(375, 123), "background.png": png(180, 220)])
        #expect(report.has(.warning, "strip.png", "generic passes do not show a strip image"))
        #expect(report.has(.warning, "background.png", "generic passes do not show a background image"))

        var boarding = generic
        boarding["boardingPass"] = boarding["generic"]
        boarding["generic"] = nil
        boarding.set(["boardingPass", "transitType"], to: "PKTransitTypeTrain")
        let boardingFiles = ["icon.png": png(29, 29), "thumbnail.png": png(90, 90), "footer@2x.png": png(572, 30)]
        let boardingReport = Fixtures.validate(boarding, files: boardingFiles)
        #expect(boardingReport.has(.warning, "thumbnail.png", "boardingPass passes do not show a thumbnail"))
        #expect(boardingReport.issues(at: "footer@2x.png").isEmpty)
    }

    @Test func stringsMustParse() {
        var files = Fixtures.iconFiles
        files["fr.lproj/pass.strings"] = Data("\"SEAT\" = \"Place\";\n\"GATE\" = \"Porte\"\n".utf8)
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.error, "fr.lproj/pass.strings", "line 3: expected ';'"))
        // The keys the pass uses, translated in en: fr's unreadable file has its one error, not also a warning per key
        // (SEAT parsed fine on line 1).
        var json = Fixtures.eventTicket
        json.set(["eventTicket", "secondaryFields", 0, "label"], to: "SEAT")
        files["en.lproj/pass.strings"] = Data("\"SEAT\" = \"Seat\";\n\"GATE\" = \"Gate\";\n".utf8)
        let localized = Fixtures.validate(json, files: files)
        #expect(localized.issues(at: "fr.lproj/pass.strings").map(\.severity) == [.error], "\(localized.issues)")
    }

    @Test func personalizationIsApplesPersonalizeObject() {
        func report(_ json: String) -> ValidationReport {
            var files = Fixtures.iconFiles
            files["personalization.json"] = Data(json.utf8)
            return Fixtures.validate(Fixtures.eventTicket, files: files)
        }
        let whole = report(#"{"requiredPersonalizationFields":["PKPassPersonalizationFieldName","PKPassPersonalizationFieldEmailAddress"],"description":"Join","termsAndConditions":"Free."}"#)
        #expect(whole.issues(at: "personalization.json").isEmpty, "\(whole.issues)")
        let empty = report("{}")
        #expect(empty.has(.error, "personalization.json", "requiredPersonalizationFields: required"))
        #expect(empty.has(.error, "personalization.json", "description: required"))
        let wrong = report(#"{"requiredPersonalizationFields":["PKPassPersonalizationFieldName","PKPassPersonalizationFieldName","name",3],"description":" ","termsAndConditions":false,"extra":1}"#)
        #expect(wrong.has(.warning, "personalization.json", "requiredPersonalizationFields[1]: PKPassPersonalizationFieldName is listed twice"))
        #expect(wrong.has(.error, "personalization.json", "requiredPersonalizationFields[2]: \"name\" is not a field Wallet asks for"))
        #expect(wrong.has(.error, "personalization.json", "requiredPersonalizationFields[3]: expected a string, found number"))
        #expect(wrong.has(.error, "personalization.json", "description: is empty"))
        #expect(wrong.has(.error, "personalization.json", "termsAndConditions: expected a string"))
        #expect(wrong.has(.warning, "personalization.json", "extra: not a key of personalization.json"))
        #expect(report("[]").has(.error, "personalization.json", "must be a JSON object"))
        #expect(report(#"{"requiredPersonalizationFields":[],"description":"Join"}"#)
            .has(.error, "personalization.json", "requiredPersonalizationFields: must name at least one field"))
    }

    @Test func repeatedStringsKeysAreWarned() {
        var files = Fixtures.iconFiles
        files["fr.lproj/pass.strings"] = Data("\"SEAT\" = \"Place\";\n\"GATE\" = \"Porte\";\n\n\"SEAT\" = \"Siège\";\n".utf8)
        let report = Fixtures.validate(Fixtures.eventTicket, files: files)
        #expect(report.has(.warning, "fr.lproj/pass.strings",
                           "key \"SEAT\" is given again on line 4 (first on line 1): only the last value is used"),
                "\(report.issues)")
        #expect(report.isValid)
        let parsed = try? StringsFile(data: files["fr.lproj/pass.strings"]!, fileName: "fr.lproj/pass.strings")
        #expect(parsed?.entries["SEAT"] == "Siège")
    }

    @Test func localizationKeysInEveryLanguage() {
        var json = Fixtures.eventTicket
        json.set(["eventTicket", "secondaryFields", 0, "label"], to: "SEAT_LABEL")
        json.set(["eventTicket", "secondaryFields", 1, "label"], to: "GATE_LABEL")
        json["description"] = "DESCRIPTION"
        var files = Fixtures.iconFiles
        files["en.lproj/pass.strings"] = Data(
            #""SEAT_LABEL" = "Seat"; "GATE_LABEL" = "Gate"; "DESCRIPTION" = "Ticket"; "UNUSED" = "x";"#.utf8)
        files["fr.lproj/pass.strings"] = Data("\"SEAT_LABEL\" = \"Place\"; \"DESCRIPTION\" = \"Billet\";".utf8)
        files["de.lproj/logo.png"] = png(100, 30)
        let report = Fixtures.validate(json, files: files)
        #expect(report.has(.warning, "fr.lproj/pass.strings", "missing key \"GATE_LABEL\" (used by eventTicket.secondaryFields[1].label)"))
        #expect(report.has(.warning, "de.lproj/pass.strings", "missing file: key \"DESCRIPTION\""))
        #expect(!report.issues.contains { $0.message.contains("UNUSED") })
        #expect(report.issues(at: "en.lproj/pass.strings").isEmpty)
        #expect(report.isValid)
    }

    @Test func preparedFilesGiveTheSameReport() throws {
        var files: [String: Data] = ["icon.png": png(30, 30), "strip.png": png(375, 98), "background.png": png(180, 220)]
        files["logo.png"] = Data("not an image".utf8)
        files["images/logo.png"] = png(10, 10)
        files["pass.strings"] = Data()
        files["personalization.json"] = Data("{".utf8)
        files["notes.txt"] = Data("x".utf8)
        files["en.lproj/pass.strings"] = Data(#""SEAT" = "Seat"; "GATE" = "Gate";"#.utf8)
        files["fr.lproj/pass.strings"] = Data("\"SEAT\" = \"Place\"\n".utf8)
        files["de.lproj/logo.png"] = png(100, 30)
        let prepared = PassValidator.PreparedFiles(files: files)
        #expect(prepared.files == files)
        var broken = Fixtures.eventTicket
        broken["serialNumber"] = 42
        for json in [Fixtures.eventTicket, broken, Fixtures.eventTicket.setting(["eventTicket"], to: nil)] {
            let bytes = Fixtures.data(json)
            let direct = PassValidator().validate(passJSON: bytes, files: files)
            #expect(PassValidator().validate(passJSON: bytes, prepared: prepared) == direct)
            #expect(!direct.issues.isEmpty)
        }
        let pass = try Pass(json: Fixtures.eventTicket)
        #expect(PassValidator().validate(pass: pass, prepared: prepared) == PassValidator().validate(pass: pass, files: files))
        #expect(PassValidator().validate(passJSON: Data("[".utf8), prepared: prepared).errors.map(\.path) == ["pass.json"])
    }

    private func png(_ width: Int, _ height: Int) -> Data { Fixtures.png(width: width, height: height) }
}
