public import Foundation
public import PassModel

/// Draws a pass close to how Wallet shows it: as SVG (pure Swift string building) or as PNG (that SVG rasterized by
/// librsvg and cairo with real fonts).
///
/// The card is 320 points wide, with the pass's colours, images (`@2x` when present, localized ones first), logo
/// text, header, primary, secondary and auxiliary fields (values formatted by `dateStyle`, `timeStyle`, `numberStyle`
/// and `currencyCode` in the pass language's locale), the barcode with its `altText` on a white panel, and on the back
/// the back fields. A pass that fails ``PassValidator`` is still drawn, under a red banner listing its errors.
///
/// The front is drawn in the ``layout`` iOS 27 gives the pass: the poster event ticket, the semantic boarding pass or
/// the poster generic pass when the pass asks for it and qualifies, else the classic layout of its style, cut and
/// filled as Wallet draws it (an event ticket's notch, a coupon's perforations, no fields past Wallet's limits).
public struct PassPreviewRenderer: Sendable {
    /// Which face of the pass to draw.
    public enum Side: String, Sendable, CaseIterable {
        /// The front: logo, fields, images and barcode.
        case front
        /// The back: the list of back fields.
        case back
        /// Front and back side by side.
        case both
    }

    /// What the preview assumes about the device showing the pass.
    public struct Configuration: Sendable {
        /// The device's time zone: dates are shown in it unless a field sets `ignoresTimeZone`.
        public var timeZone: TimeZone
        /// "Now", for fields with `isRelative` (shown relative when within a week of it).
        public var now: Date

        /// Creates a configuration.
        /// - Parameters:
        ///   - timeZone: The device's time zone (default: this machine's).
        ///   - now: The current time (default: the real one).
        public init(timeZone: TimeZone = .current, now: Date = Date()) {
            self.timeZone = timeZone
            self.now = now
        }
    }

    /// The pass being drawn.
    public let pass: Pass
    /// The language whose `xx.lproj/pass.strings` and images are used, or `nil` for none.
    public let language: String?
    /// The validator's report on the pass and its files (and, for a signed package, the package's own problems: a
    /// changed file, a signature that does not verify); its errors are drawn in the banner.
    public internal(set) var report: ValidationReport
    /// The `xx.lproj` folder whose strings and images are drawn: ``language``'s, or when the pass has none for it,
    /// the one Wallet falls back to (`en` when present, else the first alphabetically); `nil` when the pass has no
    /// localizations.
    public var localization: String? { resources.localization }
    /// Every language the pass has an `xx.lproj` folder for, sorted.
    public var localizations: [String] { resources.localizations }
    /// The layout the front is drawn in: the one iOS 27 shows (poster, semantic or classic).
    public let layout: PreviewLayout

    let configuration: Configuration
    let resources: PreviewResources
    let formatter: FieldFormatter
    let barcode: BarcodePanel?

    /// Prepares a preview: validates the pass, reads the language's strings, picks and encodes the images and
    /// renders the barcode once, so that ``svg(side:)`` and ``png(side:scale:)`` are cheap to call.
    /// - Parameters:
    ///   - pass: The decoded `pass.json`.
    ///   - files: The pass's other files by path (`logo@2x.png`, `fr.lproj/pass.strings`); `manifest.json` and
    ///     `signature` are ignored.
    ///   - language: A language code such as `en` or `fr` (the device's language: dates and numbers are formatted in
    ///     it); `nil` picks `en` when the pass has it. Its text comes from ``localization``.
    ///   - configuration: The device's time zone and clock.
    public init(pass: Pass, files: [String: Data], language: String? = nil, configuration: Configuration = .init()) {
        let contentFiles = files.filter { !["pass.json", "manifest.json", "signature"].contains($0.key) }
        let language = language ?? (contentFiles.keys.contains { $0.hasPrefix("en.lproj/") } ? "en" : nil)
        self.pass = pass
        self.language = language
        self.configuration = configuration
        report = PassValidator().validate(pass: pass, files: contentFiles)
        layout = PreviewLayout.of(pass, report: report)
        resources = PreviewResources(files: contentFiles, language: language)
        formatter = FieldFormatter(language: language ?? resources.localization, configuration: configuration,
                                   strings: resources.strings)
        barcode = BarcodePanel(pass: pass)
        imagesNotDrawn = Self.imagesNotDrawn(in: contentFiles)
    }

    /// Image files the preview does not draw (it draws PNG only): a PDF or JPEG with no PNG of the same name, such as
    /// `logo.pdf` alone, so a caller can say the picture lacks them.
    public let imagesNotDrawn: [String]

    private static func imagesNotDrawn(in files: [String: Data]) -> [String] {
        files.keys.filter { path in
            guard let dot = path.lastIndex(of: "."),
                  ["pdf", "jpg", "jpeg"].contains(path[path.index(after: dot)...].lowercased())
            else { return false }
            var base = String(path[..<dot])
            if base.hasSuffix("@2x") || base.hasSuffix("@3x") { base.removeLast(3) }
            return !["", "@2x", "@3x"].contains { files["\(base)\($0).png"] != nil }
        }.sorted()
    }

    /// The preview as a standalone SVG document, sized in points (320 wide per side).
    /// - Parameter side: The front, the back, or both side by side.
    /// - Returns: SVG text; every piece of pass text is escaped for XML.
    public func svg(side: Side = .front) -> String {
        document(side: side).text
    }

    /// The preview as a PNG: the SVG drawn by librsvg onto a cairo surface, fonts from fontconfig (DejaVu Sans).
    /// - Parameters:
    ///   - side: The front, the back, or both side by side.
    ///   - scale: Pixels per point, 0.25-8 (2 matches a Retina screen).
    /// - Returns: PNG bytes (8-bit RGBA, transparent outside the rounded card), the SVG size times `scale`.
    /// - Throws: ``PassPreviewError`` `invalidOption` for a scale out of range, `rasterizerFailure` with librsvg's or
    ///   cairo's message.
    public func png(side: Side = .front, scale: Double = 2) throws -> Data {
        guard scale >= 0.25 && scale <= 8 else {
            throw PassPreviewError(.invalidOption, "scale: \(scale) is not between 0.25 and 8")
        }
        let document = document(side: side, forRaster: true)
        let size = Self.pixelSize(width: document.width, height: document.height, scale: scale)
        return try SVGRasterizer.png(svg: document.text, width: size.width, height: size.height)
    }

    /// The pixel size of a PNG preview of `side` at `scale`.
    /// - Parameters:
    ///   - side: The front, the back, or both.
    ///   - scale: Pixels per point.
    /// - Returns: Width and height in pixels.
    public func pixelSize(side: Side = .front, scale: Double = 2) -> (width: Int, height: Int) {
        let document = document(side: side)
        return Self.pixelSize(width: document.width, height: document.height, scale: scale)
    }

    static func pixelSize(width: Double, height: Double, scale: Double) -> (width: Int, height: Int) {
        (max(1, Int((width * scale).rounded())), max(1, Int((height * scale).rounded())))
    }
}
