import Foundation
import Testing
import TesseraTestSupport

/// axe-core (the copy PyPI's axe-playwright-python ships; scripts/chromium.sh installs it) run on the sheet in
/// headless Chromium: no serious or critical violation on a phone or a desktop, light or dark, with pickers open and
/// an error shown.
@Suite("The payment sheet passes axe-core", .serialized)
struct SheetAccessibilityTests {
    /// axe.min.js from the installed Python package, or `nil`.
    static func axeSource() async throws -> String? { try await AxeCore.source() }

    /// The serious and critical violations axe finds on the sheet as it is now (see ``AxeCore``).
    static func violations(_ page: SheetBrowser.Page, axe: String, iframes: Bool = true) async throws -> [String] {
        try await AxeCore.violations(page.driver, axe: axe, iframes: iframes)
    }

    @Test("No serious or critical violation", arguments: [("phone", 390, 844), ("desktop", 1280, 800)], ["light", "dark"])
    func axeFindsNothingSerious(viewport: (name: String, width: Int, height: Int), scheme: String) async throws {
        guard let axe = try await Self.axeSource() else {
            if ProcessInfo.processInfo.environment["TESSERA_SKIP_BROWSER"] != "1" {
                Issue.record("axe-core not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)")
            }
            return
        }
        try await SheetBrowser.run { page in
            try await page.driver.devTools("Emulation.setDeviceMetricsOverride",
                                           ["width": viewport.width, "height": viewport.height, "deviceScaleFactor": 1,
                                            "mobile": viewport.name == "phone"])
            try await page.driver.devTools("Emulation.setEmulatedMedia",
                                           ["features": [["name": "prefers-color-scheme", "value": scheme]]])
            _ = try await page.text("#pay-button") { $0 == "Pay $107.84" }
            #expect(try await Self.violations(page, axe: axe) == [], "closed rows")
            try await page.openRow("shipping-method")
            #expect(try await Self.violations(page, axe: axe) == [], "shipping method picker")
            try await page.openRow("shipping-address")
            try await page.driver.type("#locality", "New York")
            try await page.driver.type("#postalCode", "10001")
            try await page.driver.type("#countryCode", "US")
            try await page.driver.click("#address-submit")
            _ = try await page.driver.wait({ try await page.driver.attribute("#shipping-status", "data-code") },
                                           until: { $0 == "addressUnserviceable" })
            #expect(try await Self.violations(page, axe: axe) == [], "address picker with an error")
            // axe really looks: a button with no name, planted here, is reported.
            _ = try await page.driver.execute("document.getElementById('sheet').append(document.createElement('button'));")
            #expect(try await Self.violations(page, axe: axe).contains { $0.hasPrefix("button-name (critical)") })
        }
    }
}
