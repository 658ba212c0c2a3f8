import Foundation
import PassModel
import PassPreview
import Testing
import TesseraTestSupport

/// The five templates, a fixed device time zone and clock, and Pillow (through `pixels.py`) to read PNGs back.
enum PreviewFixtures {
    static let templates = ["boarding-pass", "coupon", "event-ticket", "generic", "store-card"]
    static let pacific = PassPreviewRenderer.Configuration(timeZone: TimeZone(identifier: "America/Los_Angeles")!,
                                                           now: Date(timeIntervalSince1970: 1_780_000_000))

    static func template(_ name: String) throws -> PassTemplate {
        try PassTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"))
    }

    static func renderer(_ name: String, language: String? = "en") throws -> PassPreviewRenderer {
        try PassPreviewRenderer(template: template(name), language: language, configuration: pacific)
    }

    /// The template's strings for `language`.
    static func strings(_ name: String, _ language: String) throws -> [String: String] {
        let template = try template(name)
        let data = try #require(template.files["\(language).lproj/pass.strings"])
        return try StringsFile(data: data, fileName: "\(language).lproj/pass.strings").entries
    }

    /// A pass with one style and the given fields as its secondary fields (plus a primary field).
    static func pass(secondary: [PassField], style: PassStyle = .generic) -> Pass {
        var pass = Pass(description: "Test", organizationName: "Tessera", passTypeIdentifier: "pass.dev.tessera.demo",
                        serialNumber: "1", teamIdentifier: "TESSERA123")
        pass.backgroundColor = "rgb(10, 20, 30)"
        pass[style: style] = PassFields(primaryFields: [PassField(key: "p", label: "P", value: .string("Primary"))],
                                        secondaryFields: secondary)
        return pass
    }

    static func temporaryFolder() throws -> URL { try TemporaryDirectory.make(prefix: "preview") }

    /// The barcode panel's rectangle in points, read from the SVG's `data-role="barcode"` element.
    static func barcodePanel(in svg: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let line = try #require(svg.split(separator: "\n").first { $0.contains("data-role=\"barcode\"") })
        func attribute(_ name: String) throws -> Double {
            let start = try #require(line.range(of: " \(name)=\""))
            let rest = line[start.upperBound...]
            return try #require(Double(rest.prefix { $0 != "\"" }))
        }
        return (try attribute("x"), try attribute("y"), try attribute("width"), try attribute("height"))
    }
}

/// What `pixels.py` read from a PNG.
struct PixelReport {
    var width = 0
    var height = 0
    var pixels: [[Int]] = []
    var regions: [(dark: Int, light: Int)] = []

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pixels.py").path

    /// Writes `png` to a temporary file and reads the given pixels and regions (pixel coordinates).
    static func read(_ png: Data, points: [(Int, Int)] = [], regions: [(Int, Int, Int, Int)] = []) async throws -> PixelReport {
        let file = try PreviewFixtures.temporaryFolder().appendingPathComponent("preview.png")
        try png.write(to: file)
        let arguments = [script, file.path] + points.map { "\($0.0),\($0.1)" }
            + regions.map { "region:\($0.0),\($0.1),\($0.2),\($0.3)" }
        let result = try await Subprocess.run("python3", arguments)
        #expect(result.status == 0, "\(result.stderr)")
        var report = PixelReport()
        for line in result.stdout.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            let numbers = words.dropFirst().compactMap { Int($0) }
            switch words.first {
            case "size" where numbers.count == 2: (report.width, report.height) = (numbers[0], numbers[1])
            case "pixel" where numbers.count == 6: report.pixels.append(Array(numbers[2...]))
            case "region" where numbers.count == 6: report.regions.append((numbers[4], numbers[5]))
            default: break
            }
        }
        return report
    }
}
