import Foundation
import PassModel
import PassPreview
import Testing

/// The PNG preview, read back with Pillow: size for the scale, the pass colour where nothing is drawn, a barcode that
/// is not a blank panel.
@Suite("Pass preview PNG")
struct PreviewPNGTests {
    /// A point 4 points in from the left edge, halfway down: no text or image is drawn there on any template.
    func backgroundPoint(_ renderer: PassPreviewRenderer, scale: Double) -> (Int, Int) {
        let size = renderer.pixelSize(side: .front, scale: scale)
        return (Int(4 * scale), size.height / 2)
    }

    @Test(arguments: PreviewFixtures.templates)
    func sizeBackgroundAndBarcode(_ name: String) async throws {
        var files = try PreviewFixtures.template(name).files
        // Wallet draws an event ticket's background.png over its colour; without the image the colour shows.
        files = files.filter { !$0.key.hasPrefix("background") }
        let template = try PreviewFixtures.template(name)
        let renderer = PassPreviewRenderer(pass: template.pass, files: files, language: "en",
                                           configuration: PreviewFixtures.pacific)
        let scale = 2.0
        let expected = renderer.pixelSize(side: .front, scale: scale)
        #expect(expected.width == 640)
        let panel = try PreviewFixtures.barcodePanel(in: renderer.svg())
        let inner = (Int((panel.x + 14) * scale), Int((panel.y + 14) * scale),
                     Int((panel.width - 28) * scale), Int((panel.height - 40) * scale))
        let report = try await PixelReport.read(try renderer.png(side: .front, scale: scale),
                                          points: [backgroundPoint(renderer, scale: scale)], regions: [inner])
        #expect(report.width == expected.width && report.height == expected.height)
        let colour = try #require(Self.rgb(template.pass.backgroundColor))
        let pixel = try #require(report.pixels.first)
        #expect(zip(pixel.prefix(3), colour).allSatisfy { abs($0 - $1) <= 2 }, "\(name): \(pixel) is not \(colour)")
        #expect(pixel[3] == 255)
        let barcode = try #require(report.regions.first)
        #expect(barcode.dark > 100 && barcode.light > 100, "\(name): barcode region \(barcode)")
    }

    @Test func eventTicketBackgroundImageIsDrawnBlurred() async throws {
        let renderer = try PreviewFixtures.renderer("event-ticket")
        #expect(renderer.svg().contains("feGaussianBlur"))
        let point = backgroundPoint(renderer, scale: 1)
        let withImage = try await PixelReport.read(try renderer.png(scale: 1), points: [point])
        let template = try PreviewFixtures.template("event-ticket")
        let plain = PassPreviewRenderer(pass: template.pass, files: template.files.filter { !$0.key.hasPrefix("background") })
        let withoutImage = try await PixelReport.read(try plain.png(scale: 1), points: [point])
        #expect(withImage.pixels.first != withoutImage.pixels.first)
    }

    @Test(arguments: [1.0, 3.0])
    func scaleSetsThePixelSize(_ scale: Double) async throws {
        let renderer = try PreviewFixtures.renderer("generic")
        let report = try await PixelReport.read(try renderer.png(side: .both, scale: scale))
        #expect(report.width == Int(660 * scale))
        #expect(report.height == renderer.pixelSize(side: .both, scale: scale).height)
        // Outside the rounded corner the picture is transparent.
        let corner = try await PixelReport.read(try renderer.png(side: .front, scale: scale), points: [(0, 0)])
        #expect(corner.pixels.first?[3] == 0)
    }

    @Test func scaleOutOfRangeIsAnError() throws {
        let renderer = try PreviewFixtures.renderer("generic")
        #expect(throws: PassPreviewError.self) { try renderer.png(scale: 0) }
        #expect(throws: PassPreviewError.self) { try renderer.png(scale: 20) }
    }

    static func rgb(_ colour: String?) -> [Int]? {
        guard let colour, colour.hasPrefix("rgb(") else { return nil }
        return colour.dropFirst(4).dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
