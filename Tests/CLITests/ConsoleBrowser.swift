import Foundation
import Testing
import TesseraTestSupport

/// The console in headless Chromium against `tessera serve` (SQLite, pushes to an APNs stand-in): the browser, the
/// server, and what every page check needs (wait for text, axe-core, the browser's console log, screenshots).
struct ConsoleBrowser {
    let driver: WebDriver
    let server: OrdersServer
    let axe: String?

    var base: String { server.serve.baseURL }

    /// Starts the server and Chromium and runs `body`; `nil` when Chromium is missing and the run asked to skip
    /// browser tests (`TESSERA_SKIP_BROWSER=1`).
    static func run(arguments: [String] = [], _ body: @escaping (ConsoleBrowser) async throws -> Void) async throws {
        if ProcessInfo.processInfo.environment["TESSERA_SKIP_BROWSER"] == "1" { return }
        guard let chromium = WebDriver.locate() else {
            Issue.record("Chromium or chromedriver not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)")
            return
        }
        let axe = try await AxeCore.source()
        if axe == nil { Issue.record("axe-core not found: run scripts/chromium.sh (or set TESSERA_SKIP_BROWSER=1)") }
        try await OrdersServer.with(.sqlite, arguments: arguments) { server in
            let driver = try await WebDriver.start(browser: chromium.browser, driver: chromium.driver)
            do {
                try await body(ConsoleBrowser(driver: driver, server: server, axe: axe))
            } catch {
                await driver.quit()
                throw error
            }
            await driver.quit()
        }
    }

    func open(_ path: String) async throws { try await driver.open(base + path) }

    /// The text of `selector` once `condition` holds (or the last read after 30 s); an element not there yet reads "".
    func text(_ selector: String, until condition: @escaping (String) -> Bool) async throws -> String {
        try await driver.wait({ (try? await driver.text(selector)) ?? "" }, until: condition)
    }

    /// Waits until `selector` finds an element (the page's script draws it after its API calls).
    func ready(_ selector: String) async throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [selector]), as: UTF8.self)
        let found = try await driver.wait({ try await evaluate("document.querySelector(\(json)[0]) !== null") }, until: { $0 == "true" })
        if found != "true" {
            let shown = try await evaluate("location.pathname + ': ' + document.body.innerText")
                + " (browser console: \(try await driver.browserLog().map(\.message)))"
            try #require(found == "true", "\(selector) never appeared on \(shown)")
        }
    }

    /// The value of a JavaScript expression, as a string.
    func evaluate(_ expression: String) async throws -> String {
        try await driver.execute("return String(\(expression));") as? String ?? ""
    }

    /// The page's path and query once `condition` holds.
    func location(until condition: @escaping (String) -> Bool) async throws -> String {
        try await driver.wait({ try await evaluate("location.pathname + location.search") }, until: condition)
    }

    /// Checks the page as it is now: axe-core finds nothing serious or critical, and nothing was written to the
    /// browser's console since the last check.
    func check(_ name: String, screenshot: Bool = true) async throws {
        if let axe {
            let violations = try await AxeCore.violations(driver, axe: axe)
            #expect(violations.isEmpty, "\(name): \(violations)")
        }
        let log = try await driver.browserLog()
        #expect(log.isEmpty, "\(name) wrote to the browser console: \(log.map { "\($0.level) \($0.message)" })")
        if screenshot { try await self.screenshot(name) }
    }

    /// Screenshots of the page at phone and desktop widths into `TESSERA_CONSOLE_SCREENSHOTS` (docs/images), when set.
    func screenshot(_ name: String) async throws {
        guard let folder = ProcessInfo.processInfo.environment["TESSERA_CONSOLE_SCREENSHOTS"] else { return }
        for (width, label) in [(390, "phone"), (1280, "desktop")] {
            try await driver.devTools("Emulation.setDeviceMetricsOverride",
                                      ["width": width, "height": width == 390 ? 844 : 900, "deviceScaleFactor": 1, "mobile": width == 390])
            try await Task.sleep(for: .milliseconds(400))
            let png = try await driver.screenshot()
            try png.write(to: URL(fileURLWithPath: folder).appendingPathComponent("console-\(name)-\(label).png"))
        }
        try await driver.devTools("Emulation.clearDeviceMetricsOverride", [:])
    }
}
