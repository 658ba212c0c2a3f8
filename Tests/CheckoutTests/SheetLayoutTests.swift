import Checkout
import Foundation
import Testing
import TesseraTestSupport

/// The sheet's layout in headless Chromium: a bottom sheet on a phone, a centred panel on a desktop, light and dark,
/// rows that open their pickers in place. Screenshots go to `.build/sheet-screenshots` for a person to look at.
@Suite("The payment sheet's layout", .serialized)
struct SheetLayoutTests {
    /// Where the screenshots are written (printed by each test that writes one).
    static let screenshots = Subprocess.repositoryRoot.appendingPathComponent(".build/sheet-screenshots")

    static func emulate(_ page: SheetBrowser.Page, width: Int, height: Int, mobile: Bool,
                        features: [(String, String)]) async throws {
        try await page.driver.devTools("Emulation.setDeviceMetricsOverride",
                                       ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
        try await page.driver.devTools("Emulation.setEmulatedMedia",
                                       ["features": features.map { ["name": $0.0, "value": $0.1] }])
    }

    /// The sheet's box, corner radii and background, and the grabber's display, as one JSON object.
    static func geometry(_ page: SheetBrowser.Page) async throws -> [String: Any] {
        let json = try await page.evaluate("""
            (() => { const sheet = document.getElementById('sheet'), r = sheet.getBoundingClientRect(),
              style = getComputedStyle(sheet);
              return JSON.stringify({ left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                width: innerWidth, height: innerHeight, topRadius: style.borderTopLeftRadius,
                bottomRadius: style.borderBottomLeftRadius, background: style.backgroundColor,
                grabber: getComputedStyle(sheet.querySelector('.grabber')).display,
                animation: style.animationName }); })()
            """)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("A bottom sheet on a phone and a centred panel on a desktop, in light and dark",
          arguments: [("phone", 390, 844), ("desktop", 1280, 800)], ["light", "dark"])
    func layout(viewport: (name: String, width: Int, height: Int), scheme: String) async throws {
        try await SheetBrowser.run { page in
            try await Self.emulate(page, width: viewport.width, height: viewport.height, mobile: viewport.name == "phone",
                                   features: [("prefers-color-scheme", scheme), ("prefers-reduced-motion", "reduce")])
            _ = try await page.text("#pay-button") { $0 == "Pay $107.84" }
            let box = try await Self.geometry(page)
            let left = box["left"] as? Double ?? -1, right = box["right"] as? Double ?? -1
            let width = Double(viewport.width), height = Double(viewport.height)
            #expect(box["width"] as? Double == width)
            if viewport.name == "phone" {
                #expect(left == 0 && right == width, "\(box)")
                #expect(abs((box["bottom"] as? Double ?? 0) - height) < 1, "\(box)")
                #expect(box["grabber"] as? String == "block")
                #expect(box["topRadius"] as? String == "14px" && box["bottomRadius"] as? String == "0px", "\(box)")
            } else {
                #expect(abs(left - (width - right)) <= 1, "not centred: \(box)")
                #expect(right - left < width / 2, "\(box)")
                #expect(box["grabber"] as? String == "none")
                #expect(box["topRadius"] as? String == "14px" && box["bottomRadius"] as? String == "14px", "\(box)")
            }
            #expect(box["background"] as? String == (scheme == "dark" ? "rgb(28, 28, 30)" : "rgb(242, 242, 247)"))
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            let file = Self.screenshots.appendingPathComponent("sheet-\(viewport.name)-\(scheme).png")
            try await page.driver.screenshot().write(to: file)
            print("payment sheet screenshot: \(file.path)")
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("The sheet slides in only when the buyer has not asked for reduced motion")
    func reducedMotion() async throws {
        try await SheetBrowser.run { page in
            try await Self.emulate(page, width: 390, height: 844, mobile: true, features: [("prefers-reduced-motion", "no-preference")])
            #expect(try await Self.geometry(page)["animation"] as? String == "sheet-in")
            try await Self.emulate(page, width: 390, height: 844, mobile: true, features: [("prefers-reduced-motion", "reduce")])
            #expect(try await Self.geometry(page)["animation"] as? String == "none")
        }
    }

    @Test("At 200% zoom the sheet reflows: no sideways scrolling, every row and the pay button reachable",
          arguments: [("phone", 195, 422), ("desktop", 640, 400)])
    func zoomedTo200Percent(viewport: (name: String, width: Int, height: Int)) async throws {
        try await SheetBrowser.run { page in
            // 200% zoom halves the CSS viewport at twice the device pixels.
            try await page.driver.devTools("Emulation.setDeviceMetricsOverride",
                                           ["width": viewport.width, "height": viewport.height, "deviceScaleFactor": 2,
                                            "mobile": viewport.name == "phone"])
            _ = try await page.text("#pay-button") { $0 == "Pay $107.84" }
            let overflow = "(() => { const sheet = document.getElementById('sheet');"
                + " return [document.documentElement.scrollWidth <= innerWidth, sheet.scrollWidth <= sheet.clientWidth,"
                + " ...Array.from(document.querySelectorAll('.row:not([hidden]) .row-button, #pay-button'))"
                + ".map((e) => e.getBoundingClientRect().right <= innerWidth + 0.5)].every((x) => x); })()"
            #expect(try await page.evaluate(overflow) == "true")
            try await page.openRow("shipping-address")
            try await page.driver.type("#locality", "Cupertino")
            #expect(try await page.evaluate(overflow) == "true")
        }
    }
}
