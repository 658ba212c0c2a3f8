import Barcodes
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// SVG output: well-formed XML of vector shapes only, whose rectangles redraw the module matrix exactly.
@Suite("SVG output")
struct SVGTests {
    /// Collects elements, attributes and text with Foundation's XMLParser.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var text = ""
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            elements.append((elementName, attributeDict))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }

    static func parse(_ svg: String) -> (ok: Bool, collector: Collector) {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        return (parser.parse(), collector)
    }

    /// Fills a grid of `width` x `height` pixels from `M x y h w v h h -w z` subpaths.
    static func rasterize(_ d: String, width: Int, height: Int) -> [Bool]? {
        var grid = [Bool](repeating: false, count: width * height)
        for subpath in d.split(separator: "z") {
            let numbers = subpath.split(whereSeparator: { "Mhv ".contains($0) }).map { Int($0) }
            guard numbers.count == 5, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3],
                  numbers[4] == -w, x + w <= width, y + h <= height else { return nil }
            for row in y..<(y + h) { for column in x..<(x + w) { grid[row * width + column] = true } }
        }
        return grid
    }

    @Test(arguments: Barcode.Format.allCases, [1, 2, 5])
    func svgRedrawsTheMatrixWithCrispVectorShapes(_ format: Barcode.Format, scale: Int) throws {
        let matrix = try BarcodeRenderer.render(Barcode(format: format, message: LinearDecodeTests.sample(format)))
        let svg = try matrix.svg(scale: scale)
        let (ok, collector) = Self.parse(svg)
        #expect(ok)
        #expect(Set(collector.elements.map(\.name)).isSubset(of: ["svg", "rect", "path"]))
        #expect(!svg.contains("<image"))
        let root = try #require(collector.elements.first)
        let width = matrix.fullWidth * scale
        let height = matrix.fullHeight * scale
        #expect(root.name == "svg")
        #expect(root.attributes["viewBox"] == "0 0 \(width) \(height)")
        #expect(root.attributes["shape-rendering"] == "crispEdges")
        #expect(root.attributes["width"] == "\(width)" && root.attributes["height"] == "\(height)")

        let paths = collector.elements.filter { $0.name == "path" }
        #expect(paths.count == 1)
        let grid = try #require(Self.rasterize(paths.first?.attributes["d"] ?? "", width: width, height: height))
        for y in 0..<height {
            for x in 0..<width where grid[y * width + x] != matrix[x / scale - matrix.quietZone, y / scale - matrix.quietZone] {
                Issue.record("pixel \(x),\(y) differs from the matrix")
                return
            }
        }
    }

    @Test func identicalRowsAndRunsAreMerged() throws {
        let matrix = try BarcodeRenderer.render(Barcode(format: .code128, message: "MERGE"))
        let svg = try matrix.svg(scale: 1)
        let subpaths = svg.components(separatedBy: "z").count - 1
        #expect(subpaths == matrix.modules.prefix(matrix.width).enumerated().filter { index, dark in
            dark && (index == 0 || !matrix.modules[index - 1])
        }.count, "one rectangle per bar of the one-dimensional symbol")
    }

    @Test func altTextIsEscapedAndPlacedBelow() throws {
        let matrix = try BarcodeRenderer.render(Barcode(format: .qr, message: "ALT"))
        let svg = try matrix.svg(scale: 4, altText: "Zoë & <Co> \"42\"\u{1}")
        let (ok, collector) = Self.parse(svg)
        #expect(ok)
        #expect(collector.text.contains("Zoë & <Co> \"42\""))
        #expect(Set(collector.elements.map(\.name)) == ["svg", "rect", "path", "text"])
        let text = try #require(collector.elements.first { $0.name == "text" })
        #expect((Int(text.attributes["y"] ?? "") ?? 0) > matrix.fullHeight * 4)
        let root = try #require(collector.elements.first)
        #expect((Int(root.attributes["height"] ?? "") ?? 0) > matrix.fullHeight * 4)
        #expect(try matrix.svg(scale: 4, altText: "  ") == matrix.svg(scale: 4))
    }
}
