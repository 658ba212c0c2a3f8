import Foundation
import Testing
import TesseraTestSupport

/// `tessera order preview` as a subprocess: a signed order from the shipped `OrderTemplates/shop-order`, drawn as SVG
/// and PNG, a tampered order drawn under a banner, and inputs the command refuses.
@Suite("Order preview (CLI)")
struct OrderPreviewCLITests {
    let work: URL
    let certs: URL

    init() async throws {
        work = try TemporaryDirectory.make(prefix: "order-preview")
        certs = work.appendingPathComponent("certs")
        let result = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--order-type-id", "order.com.example.shop",
                                             "--team-id", "SHOP123456"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func tessera(_ arguments: [String]) async throws -> ProcessResult {
        try await offCooperativePool { try Subprocess.tessera(arguments) }
    }

    /// Signs the shop template with `data` merged in and returns the `.order`'s path.
    func order(_ name: String, data: String) async throws -> String {
        let template = Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order")
        let dataFile = work.appendingPathComponent("\(name).json")
        try Data(data.utf8).write(to: dataFile)
        let output = work.appendingPathComponent("\(name).order").path
        let create = try await tessera(["order", "create", "--template", template.path, "--data", dataFile.path,
                                        "--output", output, "--cert", certs.appendingPathComponent("order.pem").path,
                                        "--key", certs.appendingPathComponent("order.key").path,
                                        "--wwdr", certs.appendingPathComponent("wwdr.pem").path])
        #expect(create.status == 0, "\(create.stderr)")
        return output
    }

    static let shipped = #"{"fulfillments": [{"fulfillmentType": "shipping", "fulfillmentIdentifier": "TS-1001-1", "status": "onTheWay", "carrier": "UPS", "trackingNumber": "1Z999AA10123456784"}]}"#

    /// The `width` and `height` attributes of the root `<svg>` element.
    func svgSize(_ svg: String) -> (width: Double, height: Double)? {
        func attribute(_ name: String) -> Double? {
            guard let range = svg.range(of: " \(name)=\"") else { return nil }
            return Double(svg[range.upperBound...].prefix { $0 != "\"" })
        }
        guard let width = attribute("width"), let height = attribute("height") else { return nil }
        return (width, height)
    }

    @Test func svgShowsMerchantItemsTotalAndFulfillment() async throws {
        let order = try await order("shipped", data: Self.shipped)
        let output = work.appendingPathComponent("shipped.svg").path
        let preview = try await tessera(["order", "preview", order, "--output", output])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.contains("\(output): 320x"), "\(preview.stdout)")
        #expect(preview.stdout.contains("order would open"), "\(preview.stdout)")
        #expect(preview.stderr.isEmpty, "\(preview.stderr)")
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        #expect(svg.contains(">Tessera Shop</text>"))
        #expect(svg.contains("data-role=\"merchant-logo\""))
        #expect(svg.contains(">Order #1001 · Open</text>"))
        #expect(svg.contains(">Ceramic mug</text>"))
        #expect(svg.contains(">Blue, 350 ml · Qty 2</text>"))
        #expect(svg.contains(">USD 12.50</text>"))  // 12.5 in order.json, drawn with USD's two digits
        #expect(svg.contains(">Coffee beans</text>"))
        #expect(svg.contains(">USD 18.00</text>"))
        #expect(svg.contains(">Total</text>"))
        #expect(svg.contains(">USD 47.99</text>"))
        #expect(svg.contains(">Paid · Visa ••••1234</text>"))
        #expect(svg.contains("data-fulfillment-type=\"shipping\" data-status=\"onTheWay\""))
        #expect(svg.contains(">On the way</text>"))
        #expect(svg.contains(">UPS 1Z999AA10123456784</text>"))
        #expect(!svg.contains("validation-errors"))
    }

    @Test func amountsUseTheCurrencysDigitsAndPickupShowsPlaceAndWindow() async throws {
        let data = #"""
        {"lineItems": [{"title": "Dates & tea <gift box>", "quantity": 3, "price": {"amount": 4.5, "currency": "KWD"}}],
         "payment": {"total": {"amount": 13.5, "currency": "KWD"}, "status": "paid", "summaryItems": null},
         "fulfillments": [{"fulfillmentType": "pickup", "fulfillmentIdentifier": "P-1", "status": "readyForPickup",
                           "displayName": "Souq Branch", "address": {"addressLines": ["Block 3, Street 12"], "locality": "Kuwait City", "countryCode": "KW"},
                           "pickupAt": "2026-05-08T14:00:00Z", "pickupWindowDuration": "PT2H"}]}
        """#
        let order = try await order("pickup", data: data)
        let output = work.appendingPathComponent("pickup.svg").path
        let preview = try await tessera(["order", "preview", order, "--time-zone", "UTC", "--output", output])
        #expect(preview.status == 0, "\(preview.stderr)")
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        #expect(svg.contains(">Dates &amp; tea &lt;gift box&gt;</text>"))
        #expect(svg.contains(">Qty 3</text>"))
        #expect(svg.contains(">KWD 4.500</text>"))  // KWD has three digits
        #expect(svg.contains(">KWD 13.500</text>"))
        #expect(svg.contains("data-fulfillment-type=\"pickup\" data-status=\"readyForPickup\""))
        #expect(svg.contains(">Ready for pickup</text>"))
        #expect(svg.contains(">Souq Branch</text>"))
        #expect(svg.contains(">Block 3, Street 12</text>"))
        #expect(svg.contains(">Kuwait City</text>"))
        #expect(svg.contains("Pickup May 8, 2026"), "\(svg)")
        #expect(svg.contains("2:00") && svg.contains("4:00"), "\(svg)")  // the window's start and end, in UTC
    }

    @Test func pngHasTheSVGSizeTimesTheScale() async throws {
        let order = try await order("png", data: Self.shipped)
        let svgPath = work.appendingPathComponent("png.svg").path
        let pngPath = work.appendingPathComponent("png.png").path
        let svg = try await tessera(["order", "preview", order, "--output", svgPath])
        #expect(svg.status == 0, "\(svg.stderr)")
        let png = try await tessera(["order", "preview", order, "--scale", "3", "--output", pngPath])
        #expect(png.status == 0, "\(png.stderr)")
        let size = try #require(svgSize(try String(contentsOfFile: svgPath, encoding: .utf8)))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pngPath)))
        try #require(bytes.count > 33)
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        func uint32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(uint32(16) == 960)  // 320 points at 3 pixels per point
        #expect(uint32(20) == Int((size.height * 3).rounded()))
        #expect(png.stdout.contains("\(pngPath): 960x\(uint32(20)) px PNG"), "\(png.stdout)")
    }

    @Test func aTamperedOrderIsDrawnUnderABannerWithTheVerifiersErrors() async throws {
        let order = try await order("tampered", data: Self.shipped)
        let tampered = work.appendingPathComponent("changed.order").path
        try await OrderCLITests.changeOrderJSON(of: order, into: tampered)
        let output = work.appendingPathComponent("changed.svg").path
        let preview = try await tessera(["order", "preview", tampered, "--output", output])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stderr.contains("warning: order.json:") && preview.stderr.contains("SHA-256"), "\(preview.stderr)")
        #expect(preview.stdout.contains("order would NOT open"), "\(preview.stdout)")
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        #expect(svg.contains("data-role=\"validation-errors\""))
        #expect(svg.contains("Invalid order: "))
        #expect(svg.contains(">Tessera Shoq</text>"))
    }

    @Test func anUnsignedOrderIsDrawnWithTheMissingSignatureAsAWarning() async throws {
        let order = try await order("unsigned", data: Self.shipped)
        let script = """
        import sys, zipfile
        with zipfile.ZipFile(sys.argv[1]) as z, zipfile.ZipFile(sys.argv[2], "w") as out:
            for item in z.infolist():
                if item.filename != "signature":
                    out.writestr(item, z.read(item.filename))
        """
        let unsigned = work.appendingPathComponent("no-signature.order").path
        let python = try await offCooperativePool { try Subprocess.run("python3", ["-c", script, order, unsigned]) }
        #expect(python.status == 0, "\(python.stderr)")
        let output = work.appendingPathComponent("unsigned.png").path
        let preview = try await tessera(["order", "preview", unsigned, "--output", output])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stderr.contains("warning: signature: missing from the archive root"), "\(preview.stderr)")
        #expect(preview.stdout.contains("order would NOT open (1 errors)"), "\(preview.stdout)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func badInputIsNamedAndWritesNothing() async throws {
        let missing = work.appendingPathComponent("missing.order").path
        let output = work.appendingPathComponent("bad.svg").path
        let absent = try await tessera(["order", "preview", missing, "--output", output])
        #expect(absent.status == 1)
        #expect(absent.stderr.contains("error: ") && absent.stderr.contains(missing), "\(absent.stderr)")

        let text = work.appendingPathComponent("notes.order")
        try Data("not an order".utf8).write(to: text)
        let notZip = try await tessera(["order", "preview", text.path, "--output", output])
        #expect(notZip.status == 1)
        #expect(notZip.stderr.contains("\(text.path): not a ZIP archive"), "\(notZip.stderr)")

        let empty = work.appendingPathComponent("empty.order").path
        let zip = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z: z.writestr('readme.txt', 'hi')"
        let python = try await offCooperativePool { try Subprocess.run("python3", ["-c", zip, empty]) }
        #expect(python.status == 0, "\(python.stderr)")
        let noOrderJSON = try await tessera(["order", "preview", empty, "--output", output])
        #expect(noOrderJSON.status == 1)
        #expect(noOrderJSON.stderr.contains("\(empty): order.json: missing from the order"), "\(noOrderJSON.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let order = try await order("usage", data: "{}")
        let jpeg = work.appendingPathComponent("usage.jpg").path
        let wrongExtension = try await tessera(["order", "preview", order, "--output", jpeg])
        #expect(wrongExtension.status == 2)
        #expect(wrongExtension.stderr.contains("--output must end in .png or .svg, not \"\(jpeg)\""), "\(wrongExtension.stderr)")
        #expect(!FileManager.default.fileExists(atPath: jpeg))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }
}

extension OrderPreviewCLITests {
    @Test("an order of 500 line items draws the first 100 and how many more, as SVG and as PNG")
    func manyLineItemsAreSummarised() async throws {
        let items = (0..<500).map { #"{"title": "Item \#($0)", "quantity": 1, "price": {"amount": "1.00", "currency": "USD"}}"# }
        let order = try await order("many", data: #"{"orderIdentifier": "MANY-500", "lineItems": [\#(items.joined(separator: ","))]}"#)
        let svgPath = work.appendingPathComponent("many.svg").path
        let svgRun = try await tessera(["order", "preview", order, "--output", svgPath])
        #expect(svgRun.status == 0, "\(svgRun.stderr)")
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        #expect(svg.components(separatedBy: "data-role=\"line-item\"").count - 1 == 100)
        #expect(svg.contains(">Item 99</text>") && !svg.contains(">Item 100</text>"))
        #expect(svg.contains(">and 400 more items</text>"), "the summary line is missing")
        #expect((svgSize(svg)?.height ?? .infinity) < 8_000)
        // The PNG was refused before ("cannot make a 640×39524 image").
        let pngPath = work.appendingPathComponent("many.png").path
        let pngRun = try await tessera(["order", "preview", order, "--output", pngPath])
        #expect(pngRun.status == 0, "\(pngRun.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: pngPath))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
