import Foundation
import PassModel

extension PassPreviewRenderer {
    /// An SVG document and its size in points.
    struct Document {
        var text: String
        var width: Double
        var height: Double
    }

    /// Space between the front and the back when both are drawn.
    static let sideGap = 20.0

    /// Builds the SVG: the validation banner (if any) across the top, then the requested sides.
    /// - Parameters:
    ///   - side: The sides to draw.
    ///   - forRaster: Whether the SVG is for librsvg (the PNG path): the blurred background is then a cached,
    ///     pre-blurred image instead of an `feGaussianBlur` filter.
    func document(side: Side, forRaster: Bool = false) -> Document {
        let colors = CardColors(pass: pass)
        var cards: [(canvas: SVGCanvas, height: Double, id: String)] = []
        var frontHeight = 300.0
        if side != .back {
            var canvas = SVGCanvas()
            frontHeight = drawFront(on: &canvas, colors: colors)
            cards.append((canvas, frontHeight, "front"))
        }
        if side != .front {
            var canvas = SVGCanvas()
            // A poster generic pass shows the back fields of posterGeneric, which replaces generic.
            let fields = layout == .posterGeneric
                ? pass.posterGeneric : pass.fieldsOfStyle ?? pass.styles.first.flatMap { pass[style: $0] }
            let back = BackSide(pass: pass, fields: fields, colors: colors, formatter: formatter)
            let height = back.draw(on: &canvas, minimumHeight: side == .both ? frontHeight : 300)
            cards.append((canvas, height, "back"))
        }
        let width = FrontSide.width * Double(cards.count) + Self.sideGap * Double(cards.count - 1)
        let banner = ValidationBanner(report: report, width: width)
        let top = banner?.height ?? 0
        let height = (top + (cards.map(\.height).max() ?? 0)).rounded(.up)

        var svg = SVGCanvas()
        svg.openDocument(width: width, height: height)
        if let banner { banner.draw(on: &svg) }
        for (index, card) in cards.enumerated() {
            let x = Double(index) * (FrontSide.width + Self.sideGap)
            svg.raw("<g transform=\"translate(\(svg.n(x)) \(svg.n(top)))\" data-side=\"\(card.id)\">\n")
            svg.raw(CardShape.clipPath(id: card.id, width: FrontSide.width, height: card.height,
                                       cut: CardShape.cut(for: pass, side: card.id, layout: layout)))
            svg.raw("<g clip-path=\"url(#\(card.id)-card)\">\n")
            drawBackground(on: &svg, colors: colors, height: card.height, id: card.id, forRaster: forRaster)
            svg.raw(card.canvas.text)
            svg.raw("</g>\n</g>\n")
        }
        svg.raw("</svg>\n")
        return Document(text: svg.text, width: width, height: height)
    }

    /// Draws the front in the pass's ``layout`` and returns its height.
    func drawFront(on canvas: inout SVGCanvas, colors: CardColors) -> Double {
        let language = formatter.locale.identifier
        switch layout {
        case .classic:
            let fields = pass.fieldsOfStyle ?? pass.styles.first.flatMap { pass[style: $0] } ?? PassFields()
            return FrontSide(pass: pass, fields: FieldLimits.shown(fields, style: pass.style, pass: pass),
                             colors: colors, resources: resources, formatter: formatter, barcode: barcode)
                .draw(on: &canvas)
        case .semanticBoardingPass:
            return SemanticBoardingFront(pass: pass, colors: colors, resources: resources, formatter: formatter,
                                         barcode: barcode, language: language).draw(on: &canvas)
        case .posterEventTicket, .posterGeneric:
            return PosterFront(pass: pass, isEvent: layout == .posterEventTicket, colors: colors, resources: resources,
                               formatter: formatter, barcode: barcode, language: language).draw(on: &canvas)
        }
    }

    /// The pass colour, or for an event ticket with `background.png` that image scaled to fill and blurred (for
    /// librsvg, by ``BlurredBackground`` once per image and size; should that fail, by the filter).
    func drawBackground(on canvas: inout SVGCanvas, colors: CardColors, height: Double, id: String,
                        forRaster: Bool = false) {
        canvas.rect(x: 0, y: 0, width: FrontSide.width, height: height, fill: colors.background.svg,
                    attributes: "data-role=\"background\"")
        guard id == "front", layout == .classic, pass.style == .eventTicket, resources[image: "strip"] == nil,
              let background = resources[image: "background"] else { return }
        // Drawn larger than the card so the blur's faded edges fall outside the clip.
        let (width, fullHeight) = (FrontSide.width + 60, height + 60)
        if forRaster, let blurred = try? BlurredBackground.uri(image: background.uri, width: width, height: fullHeight) {
            canvas.image(blurred, x: -30, y: -30, width: width, height: fullHeight, aspect: "none")
            return
        }
        canvas.raw("<defs><filter id=\"\(id)-blur\" x=\"0\" y=\"0\" width=\"1\" height=\"1\">"
            + "<feGaussianBlur stdDeviation=\"10\"/></filter></defs>\n")
        canvas.image(background.uri, x: -30, y: -30, width: width, height: fullHeight,
                     aspect: "xMidYMid slice", attributes: "filter=\"url(#\(id)-blur)\"")
    }
}
