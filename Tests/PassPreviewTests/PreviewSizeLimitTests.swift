import Foundation
import PassModel
@testable import PassPreview
import Testing
import Validation

/// Previews of passes whose back or error list is longer than any image the rasterizer can make: drawn, cut with a
/// word, not refused.
@Suite("Pass preview size limits")
struct PreviewSizeLimitTests {
    @Test("a back field of 60 KB (terms and conditions) is drawn up to the tallest back, with a line saying the rest is cut")
    func longBackField() async throws {
        let paragraph = String(repeating: "These terms apply to every ticket sold for the event. ", count: 20)
        let terms = Array(repeating: paragraph, count: 60).joined(separator: "\n")
        #expect(terms.utf8.count > 60_000)
        var pass = PreviewFixtures.pass(secondary: [])
        pass[style: .generic]?.backFields = [PassField(key: "terms", label: "Terms", value: .string(terms)),
                                             PassField(key: "after", label: "After", value: .string("never drawn"))]
        let renderer = PassPreviewRenderer(pass: pass, files: [:], language: "en")
        let svg = renderer.svg(side: .back)
        #expect(svg.contains("data-role=\"back-cut\""))
        #expect(!svg.contains("never drawn"))
        let size = renderer.pixelSize(side: .back, scale: 2)
        #expect(size.height < 32_767, "\(size)")
        let report = try await PixelReport.read(try renderer.png(side: .back, scale: 2))
        #expect(report.height == size.height)
    }

    @Test("a banner over a pass with a thousand errors lists the first ones and says how many more there are")
    func manyErrors() throws {
        let issues = (0..<1_000).map { ValidationIssue(severity: .error, path: "fields[\($0)]", message: "is wrong") }
        let banner = try #require(ValidationBanner(issues: issues, subject: "pass", width: 320))
        #expect(banner.lines.count <= ValidationBanner.maximumLines + 1)
        #expect(banner.lines.first == "Invalid pass: 1000 validation errors")
        #expect(banner.lines.last == "• and \(1_000 - ValidationBanner.maximumLines + 1) more errors", "\(banner.lines.last ?? "")")
    }
}

extension PreviewSizeLimitTests {
    /// A PNG's signature and header claiming `width` × `height` pixels, and its end: what a preview reads first.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be(UInt32(body.count)) + typed + be(crc32(typed))
        }
        let header = be(width) + be(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", []))
    }

    @Test("an image claiming more pixels than any pass image may have is not drawn (a .pkpass from anyone can hold one)")
    func hugeImageIsNotDrawn() throws {
        let pass = PreviewFixtures.pass(secondary: [])
        let huge = PassPreviewRenderer(pass: pass, files: ["logo.png": Self.pngHeader(width: 20_000, height: 20_000)], language: "en")
        #expect(!huge.svg().contains("data:image/png"))
        let small = PassPreviewRenderer(pass: pass, files: ["logo.png": Self.pngHeader(width: 160, height: 50)], language: "en")
        #expect(small.svg().contains("data:image/png"))
    }
}
