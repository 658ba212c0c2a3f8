public import Foundation

/// axe-core (the copy PyPI's axe-playwright-python ships; scripts/chromium.sh installs it), run in a page through
/// WebDriver.
public enum AxeCore {
    /// axe.min.js from the installed Python package, or `nil`.
    public static func source() async throws -> String? {
        let result = try await offCooperativePool {
            try Subprocess.run("python3", ["-c", "import importlib.util, os; spec = importlib.util.find_spec('axe_playwright_python'); "
                + "print(os.path.join(os.path.dirname(spec.origin), 'axe.min.js') if spec else '')"])
        }
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !path.isEmpty else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The serious and critical violations axe finds on the page as it is now, as "rule (impact): targets" lines;
    /// with `iframes` false, frames are left out.
    public static func violations(_ driver: WebDriver, axe: String, iframes: Bool = true) async throws -> [String] {
        if try await driver.execute("return String(typeof axe);") as? String != "object" { _ = try await driver.execute(axe) }
        let script = """
            const done = arguments[arguments.length - 1];
            axe.run(document, { resultTypes: ['violations'], iframes: \(iframes) })
              .then((r) => done(JSON.stringify(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))))
              .catch((e) => done(JSON.stringify(['axe failed: ' + e])));
            """
        let json = try await driver.executeAsync(script) as? String ?? "[\"no answer from axe\"]"
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String] ?? [json]
    }
}
