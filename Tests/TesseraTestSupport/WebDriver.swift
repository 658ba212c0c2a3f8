import AsyncHTTPClient
public import Foundation
import TestChildProcess
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOHTTP1
import Synchronization

/// A minimal W3C WebDriver client for chromium-driver: start the driver, open a headless Chromium session, find,
/// click, type, read text and attributes, and poll until the page shows what the test waits for.
public final class WebDriver: @unchecked Sendable {
    public let base: String
    public let sessionId: String
    private let process: ChildProcess
    private let ended = Atomic<Bool>(false)

    /// Where Debian puts Chromium and its driver, or `nil` when either is missing.
    public static func locate() -> (browser: String, driver: String)? {
        let browsers = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        let drivers = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        guard let browser = browsers.first(where: FileManager.default.isExecutableFile(atPath:)),
              let driver = drivers.first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        return (browser, driver)
    }

    /// Starts chromium-driver on a free port and opens a headless session, once fewer than the browser limit are open
    /// (see `SubprocessSlots.browsers`); ``quit()`` gives the place back.
    public static func start(browser: String, driver: String) async throws -> WebDriver {
        await SubprocessSlots.browsers.acquire()
        do {
            return try await launch(browser: browser, driver: driver)
        } catch {
            await SubprocessSlots.browsers.release()
            throw error
        }
    }

    private static func launch(browser: String, driver: String) async throws -> WebDriver {
        let port = ServeProcess.unusedPort()
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: driver)
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let base = "http://127.0.0.1:\(port)"
        var ready = false
        // The browser suites start their drivers and browsers at the same time, beside the rest of the suite: on two
        // cores a driver can take tens of seconds to answer. A minute on a quiet machine, scaled; and at least 100
        // tries, however long each takes (this wait runs on the same few threads as the suite's other tests).
        let deadline = ContinuousClock.now + TestTime.duration(.seconds(60))
        var tries = 0
        while !ready, tries < 100 || ContinuousClock.now < deadline {
            tries += 1
            try await Task.sleep(for: .milliseconds(100))
            ready = ((try? await call("GET", base + "/status"))?["ready"] as? Bool) == true
        }
        guard ready else {
            let exited = process.isRunning ? "still running" : "exited with status \(process.terminationStatus)"
            // SIGKILL: a driver started from a worker thread may have SIGTERM blocked, and must not outlive the test.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw WebDriverError("chromedriver did not answer /status on port \(port) after \(tries) tries and "
                + "\(Int(TestTime.seconds(60))) s (TESSERA_TEST_TIME_FACTOR \(TestTime.factor)); it had \(exited)")
        }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": ["binary": browser, "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                              "--disable-dev-shm-usage", "--window-size=1000,1400",
                                                              "--lang=en-US", "--hide-scrollbars"]],
            "goog:loggingPrefs": ["browser": "ALL"],
        ] as [String: Any]]]
        do {
            let value = try await call("POST", base + "/session", capabilities)
            guard let sessionId = value["sessionId"] as? String else { throw WebDriverError("no WebDriver session: \(value)") }
            TestProgress.say("chromedriver 127.0.0.1:\(port)", "session open")
            return WebDriver(base: base + "/session/" + sessionId, sessionId: sessionId, process: process)
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }
    }

    private init(base: String, sessionId: String, process: ChildProcess) {
        self.base = base
        self.sessionId = sessionId
        self.process = process
    }

    /// Ends the session and stops the driver.
    public func quit() async {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        let name = "chromedriver \(base.split(separator: "/")[1])"
        TestProgress.say(name, "closing the session")
        _ = try? await Self.call("DELETE", base)
        TestProgress.say(name, "shutting down")
        if let root = base.range(of: "/session/") { _ = try? await Self.callAny("GET", String(base[..<root.lowerBound]) + "/shutdown") }
        // chromedriver may ignore SIGTERM; never wait on it unbounded.
        process.terminate()
        for _ in 0..<30 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        TestProgress.say(name, process.isRunning ? "still running: SIGKILL sent" : "stopped")
        await SubprocessSlots.browsers.release()
    }

    public func open(_ url: String) async throws { _ = try await Self.call("POST", base + "/url", ["url": url]) }

    public func element(_ selector: String) async throws -> String {
        let value = try await Self.call("POST", base + "/element", ["using": "css selector", "value": selector])
        guard let id = value["element-6066-11e4-a52e-4f735466cecf"] as? String else {
            throw WebDriverError("no element \(selector): \(value)")
        }
        return id
    }

    /// Clicks what `selector` finds now: a page that redrew the element between the lookup and the click (a list
    /// rebuilt from a server's answer) has it looked up again, as a buyer's click lands on whatever is there.
    public func click(_ selector: String) async throws {
        for attempt in 1...3 {
            do {
                return try await click(element: try await element(selector))
            } catch where attempt < 3 && "\(error)".contains("stale element reference") {
                continue
            }
        }
    }

    /// Clicks an element found earlier by ``element(_:)``: fails when the page has replaced it since.
    public func click(element id: String) async throws {
        _ = try await Self.call("POST", base + "/element/\(id)/click", [:])
    }

    public func type(_ selector: String, _ text: String) async throws {
        let id = try await element(selector)
        _ = try await Self.call("POST", base + "/element/\(id)/clear", [:])
        _ = try await Self.call("POST", base + "/element/\(id)/value", ["text": text])
    }

    /// Moves the session into the frame `selector` finds (commands then act on the frame's document), or back to the
    /// top-level document with `nil`.
    public func frame(_ selector: String?) async throws {
        if let selector {
            let id = try await element(selector)
            _ = try await Self.call("POST", base + "/frame", ["id": ["element-6066-11e4-a52e-4f735466cecf": id]])
        } else {
            _ = try await Self.call("POST", base + "/frame", ["id": NSNull()])
        }
    }

    /// Sends keys (WebDriver key codes such as `"\u{E015}"`, arrow down) to the element without clearing it.
    public func keys(_ selector: String, _ text: String) async throws {
        _ = try await Self.call("POST", base + "/element/\(try await element(selector))/value", ["text": text])
    }

    /// Presses keys as a keyboard would, on whatever has the focus (WebDriver key codes such as `"\u{E004}"`, Tab).
    public func press(_ keys: String) async throws {
        let actions = keys.unicodeScalars.flatMap { key in
            [["type": "keyDown", "value": String(key)], ["type": "keyUp", "value": String(key)]]
        }
        _ = try await Self.callAny("POST", base + "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    /// Runs `script` in the page (a function body; `arguments` holds `args`) and returns what it returns.
    public func execute(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await Self.callAny("POST", base + "/execute/sync", ["script": script, "args": args])
    }

    /// Runs a Chrome DevTools Protocol command through chromium-driver (device metrics, emulated media features).
    public func devTools(_ command: String, _ parameters: [String: Any]) async throws {
        _ = try await Self.callAny("POST", base + "/goog/cdp/execute", ["cmd": command, "params": parameters])
    }

    /// Runs `script` as an asynchronous script: it finishes by calling its last argument with the result.
    public func executeAsync(_ script: String) async throws -> Any? {
        try await Self.callAny("POST", base + "/execute/async", ["script": script, "args": []])
    }

    /// What the page wrote to the browser's console since the last call (Chromium's log: level and message),
    /// network errors included.
    public func browserLog() async throws -> [(level: String, message: String)] {
        let entries = try await Self.callAny("POST", base + "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.map { (($0["level"] as? String) ?? "", ($0["message"] as? String) ?? "") }
    }

    /// The address of the current page.
    public func currentURL() async throws -> String {
        try await Self.callAny("GET", base + "/url") as? String ?? ""
    }

    /// The value of the current page's cookie `name` (HttpOnly ones too), or `nil` when it has none.
    public func cookie(_ name: String) async throws -> String? {
        let cookies = try await Self.callAny("GET", base + "/cookie") as? [[String: Any]] ?? []
        return cookies.first { $0["name"] as? String == name }?["value"] as? String
    }

    /// Deletes the current page's cookie `name`, as if the browser had been closed (no request is made).
    public func deleteCookie(_ name: String) async throws {
        _ = try await Self.callAny("DELETE", base + "/cookie/\(name)")
    }

    /// Reloads the current page.
    public func refresh() async throws { _ = try await Self.call("POST", base + "/refresh", [:]) }

    /// Sets the browser window's outer size in CSS pixels.
    public func setWindowSize(width: Int, height: Int) async throws {
        _ = try await Self.call("POST", base + "/window/rect", ["width": width, "height": height])
    }

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        guard let base64 = try await Self.callAny("GET", base + "/screenshot") as? String,
              let data = Data(base64Encoded: base64) else { throw WebDriverError("no screenshot") }
        return data
    }

    public func text(_ selector: String) async throws -> String {
        try await Self.callAny("GET", base + "/element/\(try await element(selector))/text") as? String ?? ""
    }

    public func attribute(_ selector: String, _ name: String) async throws -> String? {
        try await Self.callAny("GET", base + "/element/\(try await element(selector))/attribute/\(name)") as? String
    }

    /// Polls `read` until `condition` holds (30 s, generous for a loaded machine), returning the last value read.
    public func wait<T: Sendable>(_ read: () async throws -> T, until condition: (T) -> Bool) async throws -> T {
        var last = try await read()
        for _ in 0..<300 where !condition(last) {
            try await Task.sleep(for: .milliseconds(100))
            last = try await read()
        }
        return last
    }

    private static func call(_ method: String, _ url: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        try await callAny(method, url, body) as? [String: Any] ?? [:]
    }

    /// One WebDriver command; returns its `value`, throwing WebDriver errors.
    private static func callAny(_ method: String, _ url: String, _ body: [String: Any]? = nil) async throws -> Any? {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        // Bounded twice: the client's own deadline, and a limit that holds even if a request never completes after
        // chromedriver went away (the test then fails instead of holding the run).
        let prepared = request
        let (response, bytes) = try await withTimeLimit(90, "WebDriver \(method) \(url)") {
            let response = try await HTTPClient.shared.execute(prepared, timeout: .seconds(60))
            return (response, try await response.body.collect(upTo: 1 << 25))
        }
        let object = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView), options: [.fragmentsAllowed]) as? [String: Any]
        let value = object?["value"]
        if response.status.code >= 400 {
            throw WebDriverError("WebDriver \(method) \(url): \(response.status.code) \(value ?? "")")
        }
        return value is NSNull ? nil : value
    }
}


/// A WebDriver command that failed, or a browser that did not start.
public struct WebDriverError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
