public import Foundation
public import OrderModel
public import PassModel

/// Draws an order as Wallet lists it: the merchant (logo and display name), the order number and status, the first
/// fulfillment's status with its carrier and tracking number (shipping) or place and window (pickup), each line item
/// with its quantity and price, the summary items and the payment total with the currency's digits.
///
/// The SVG is built with the pass preview's canvas (text escaped for XML) and the PNG is that SVG rasterized by librsvg,
/// as for ``PassPreviewRenderer``. Problems found while checking the order (its signature, manifest or `order.json`)
/// are drawn in a red banner above the card.
public struct OrderPreviewRenderer: Sendable {
    /// The order being drawn.
    public let order: Order
    /// The problems drawn in the banner (the errors among them); empty for an order that would open.
    public let issues: [ValidationIssue]
    /// The device's time zone: fulfillment dates are shown in it.
    public let timeZone: TimeZone

    let files: [String: Data]

    /// Prepares a preview.
    /// - Parameters:
    ///   - order: The decoded `order.json`.
    ///   - files: The bundle's other files by path (the merchant logo is looked up here).
    ///   - issues: What checking the bundle found; its errors are drawn in a banner.
    ///   - timeZone: The time zone dates are shown in (default: this machine's).
    public init(order: Order, files: [String: Data], issues: [ValidationIssue] = [], timeZone: TimeZone = .current) {
        self.order = order
        self.files = files
        self.issues = issues
        self.timeZone = timeZone
    }

    /// Prepares a preview of an `.order` bundle's files.
    /// - Parameters:
    ///   - bundleFiles: Every file by path, `order.json` included.
    ///   - issues: What checking the bundle found; its errors are drawn in a banner.
    ///   - timeZone: The time zone dates are shown in.
    /// - Throws: ``PassPreviewError`` `missingOrderJSON`, or `invalidOrder` with the decoding reason.
    public init(bundleFiles: [String: Data], issues: [ValidationIssue] = [], timeZone: TimeZone = .current) throws {
        guard let orderJSON = bundleFiles["order.json"] else {
            throw PassPreviewError(.missingOrderJSON, "order.json: missing from the order")
        }
        let order: Order
        do {
            order = try Order(jsonData: orderJSON)
        } catch {
            throw PassPreviewError(.invalidOrder, "order.json: \(error)")
        }
        self.init(order: order, files: bundleFiles, issues: issues, timeZone: timeZone)
    }

    /// The preview as a standalone SVG document, 320 points wide.
    /// - Returns: SVG text; every piece of order text is escaped for XML.
    public func svg() -> String {
        document().text
    }

    /// The preview as a PNG: the SVG drawn by librsvg onto a cairo surface.
    /// - Parameter scale: Pixels per point, 0.25-8.
    /// - Returns: PNG bytes (8-bit RGBA, transparent outside the rounded card), the SVG size times `scale`.
    /// - Throws: ``PassPreviewError`` `invalidOption` for a scale out of range, `rasterizerFailure` with librsvg's or
    ///   cairo's message.
    public func png(scale: Double = 2) throws -> Data {
        guard scale >= 0.25 && scale <= 8 else {
            throw PassPreviewError(.invalidOption, "scale: \(scale) is not between 0.25 and 8")
        }
        let document = document()
        let size = PassPreviewRenderer.pixelSize(width: document.width, height: document.height, scale: scale)
        return try SVGRasterizer.png(svg: document.text, width: size.width, height: size.height)
    }

    /// The pixel size of a PNG preview at `scale`.
    /// - Parameter scale: Pixels per point.
    /// - Returns: Width and height in pixels.
    public func pixelSize(scale: Double = 2) -> (width: Int, height: Int) {
        let document = document()
        return PassPreviewRenderer.pixelSize(width: document.width, height: document.height, scale: scale)
    }

    func document() -> PassPreviewRenderer.Document {
        let width = OrderCard.width
        var card = SVGCanvas()
        let cardHeight = OrderCard(order: order, logo: logo, timeZone: timeZone).draw(on: &card)
        let banner = ValidationBanner(issues: issues, subject: "order", width: width)
        let top = banner?.height ?? 0
        let height = (top + cardHeight).rounded(.up)
        var svg = SVGCanvas()
        svg.openDocument(width: width, height: height)
        if let banner { banner.draw(on: &svg) }
        svg.raw("<g transform=\"translate(0 \(svg.n(top)))\" data-role=\"order\">\n")
        svg.rect(x: 0, y: 0, width: width, height: cardHeight, radius: 12, fill: "#ffffff",
                 attributes: "stroke=\"#d1d1d6\" stroke-width=\"1\"")
        svg.raw(card.text)
        svg.raw("</g>\n</svg>\n")
        return PassPreviewRenderer.Document(text: svg.text, width: width, height: height)
    }

    /// The merchant's logo: the bundle file `merchant.logo` names, when it is a readable PNG.
    var logo: PreviewResources.Image? {
        guard let name = order.merchant?.logo, let data = OrderValidator.resolve(name, in: files)?.data, let info = try? PNGInfo(data: data),
              info.width > 0, info.height > 0, info.width * info.height <= PNGInfo.maximumPixels else { return nil }
        return PreviewResources.Image(uri: "data:image/png;base64," + data.base64EncodedString(),
                                      width: Double(info.width), height: Double(info.height))
    }
}
