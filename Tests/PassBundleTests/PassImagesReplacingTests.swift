import Foundation
import PassBundle
import PassModel
import Testing
import TesseraTestSupport

/// A pass's own image replaces the template's files of that image whatever their format, scale or language.
@Suite("A pass's own images over the template's files")
struct PassImagesReplacingTests {
    @Test("a pass's thumbnail.png removes the template's thumbnail.pdf, its scales and languages; other images stay")
    func pngReplacesPDF() throws {
        let png = TestPNG.make(width: 90, height: 90, comment: "holder")
        var data = try PassData(jsonData: JSONSerialization.data(withJSONObject: [
            "images": ["thumbnail.png": png.base64EncodedString()],
        ]))
        let images = try PassImages(taking: &data)
        let template: [String: Data] = [
            "pass.json": Data("{}".utf8), "icon.png": Data("icon".utf8), "logo.pdf": Data("logo".utf8),
            "thumbnail.pdf": Data("template thumbnail".utf8), "thumbnail@2x.png": Data("template 2x".utf8),
            "fr.lproj/thumbnail.pdf": Data("template fr".utf8), "fr.lproj/pass.strings": Data("x".utf8),
        ]
        let files = images.replacing(in: template)
        #expect(Set(files.keys) == ["pass.json", "icon.png", "logo.pdf", "thumbnail.png", "fr.lproj/pass.strings"])
        #expect(files["thumbnail.png"] == png)
    }
}
