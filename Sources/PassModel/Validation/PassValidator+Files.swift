import Foundation

/// A bundle file path split into its language folder, base name and scale.
struct BundleFilePath {
    /// `fr` for `fr.lproj/logo@2x.png`; `nil` at the top level.
    var language: String?
    /// The file name without folder, such as `logo@2x.png`.
    var fileName: String
    /// Whether the path is at the top level or directly inside one `xx.lproj` folder.
    var isWellPlaced: Bool

    init(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        fileName = parts.last ?? path
        if parts.count == 1 {
            language = nil
            isWellPlaced = true
        } else if parts.count == 2, parts[0].hasSuffix(".lproj"), parts[0].count > 6 {
            language = String(parts[0].dropLast(6))
            isWellPlaced = true
        } else {
            language = nil
            isWellPlaced = false
        }
    }

    /// For `logo@2x.png`: `("logo", 2, false)`; for `artwork.pdf`: `("artwork", 1, true)`; `nil` for files that
    /// are neither PNG nor PDF.
    var image: (base: String, scale: Int, isPDF: Bool)? {
        let lowercased = fileName.lowercased()
        let isPDF = lowercased.hasSuffix(".pdf")
        guard isPDF || lowercased.hasSuffix(".png") else { return nil }
        let stem = String(fileName.dropLast(4))
        for scale in [2, 3] where stem.hasSuffix("@\(scale)x") {
            return (String(stem.dropLast(3)), scale, isPDF)
        }
        return (stem, 1, isPDF)
    }
}

extension PassValidator {
    /// Image names Wallet uses (the poster names are for iOS 18+ poster event tickets and personalisation).
    package static let imageNames = [
        "icon", "logo", "thumbnail", "strip", "background", "footer", "artwork", "primaryLogo", "secondaryLogo",
        "personalizationLogo",
    ]

    /// The images that may be PDF documents instead of PNG: every image Apple's Pass Builder reads and writes
    /// as either (it has no slot for `personalizationLogo`).
    static let pdfImageNames: Set<String> = [
        "icon", "logo", "thumbnail", "strip", "background", "footer", "artwork", "primaryLogo", "secondaryLogo",
    ]

    /// The image a PNG or PDF file name is (`thumbnail` for `thumbnail@2x.png` or `thumbnail.pdf`), or `nil` when it
    /// is not an image name Wallet uses in that format.
    /// - Parameter name: A bundle file name.
    package static func imageBase(ofPNGOrPDF name: String) -> String? {
        guard name.hasSuffix(".pdf") else { return imageBase(ofPNG: name) }
        var stem = String(name.dropLast(4))
        if stem.hasSuffix("@2x") || stem.hasSuffix("@3x") { stem = String(stem.dropLast(3)) }
        return pdfImageNames.contains(stem) ? stem : nil
    }

    /// The image a PNG file name is (`thumbnail` for `thumbnail@2x.png`), or `nil` when it is not a PNG name Wallet
    /// uses.
    /// - Parameter name: A bundle file name.
    package static func imageBase(ofPNG name: String) -> String? {
        guard name.hasSuffix(".png") else { return nil }
        var stem = String(name.dropLast(4))
        if stem.hasSuffix("@2x") || stem.hasSuffix("@3x") { stem = String(stem.dropLast(3)) }
        return imageNames.contains(stem) ? stem : nil
    }

    /// The images each style shows; others are ignored by Wallet.
    package static func images(for style: PassStyle) -> Set<String> {
        imagesByStyle[style] ?? []
    }

    private static let imagesByStyle: [PassStyle: Set<String>] = [
        .boardingPass: ["icon", "logo", "footer"],
        .coupon: ["icon", "logo", "strip"],
        .storeCard: ["icon", "logo", "strip", "personalizationLogo"],
        .generic: ["icon", "logo", "thumbnail", "artwork", "primaryLogo", "secondaryLogo"],
        .eventTicket: ["icon", "logo", "strip", "background", "thumbnail", "artwork", "primaryLogo", "secondaryLogo"],
    ]

    /// The largest file a pass may hold: 16 MiB, the largest entry ``PassArchive`` (and so `tessera pass verify`)
    /// reads. Wallet passes are meant to be small.
    public static let maximumFileSize = 16 << 20

    func checkFiles(_ pass: Pass, files: PreparedFiles, context: inout ValidationContext) {
        let style = pass.style
        let shown = style.map(Self.images(for:)) ?? []
        if !files.hasIcon {
            context.error("icon.png", files.otherIcons.isEmpty
                ? "required image is missing (icon.png or icon.pdf, with icon@2x.png and icon@3x.png beside it)"
                : "required image is missing: only \(files.otherIcons.joined(separator: " and ")) found; Wallet requires icon.png as well")
        }
        for entry in files.entries {
            let path = entry.path
            if let size = files.files[path]?.count, size > Self.maximumFileSize {
                context.error(path, "\(size) bytes: larger than the \(Self.maximumFileSize >> 20) MiB a file of a pass may "
                              + "have (passes are meant to be small; a verifier reads no larger entry)")
            }
            switch entry.kind {
            case .misplaced:
                context.warning(path, "not a pass file (only top-level files and xx.lproj folders are used); Wallet ignores it")
            case .strings(let inLanguageFolder):
                if !inLanguageFolder {
                    context.warning(path, "must be inside a language folder such as en.lproj; Wallet ignores it")
                }
            case .personalization(let document):
                if let document {
                    Self.checkPersonalization(document, path: path, context: &context)
                } else {
                    context.error(path, "not valid JSON")
                }
            case .other:
                context.warning(path, "not a pass file; Wallet ignores it")
            case .image(_, _, .failure(let error)):
                context.error(path, "not a valid PNG image: \(error.reason)")
            case .image(let base, let scale, .success(let info)):
                checkImage(
                    ImageSize(info), base: base, scale: scale, style: style, shown: shown, hasStrip: files.hasStrip,
                    path: path, context: &context
                )
            case .pdfImage(_, _, .failure(let error)):
                context.error(path, "not a valid PDF image: \(error.reason)")
            case .pdfImage(let base, let scale, .success(let info)):
                if Self.imageNames.contains(base), !Self.pdfImageNames.contains(base) {
                    context.warning(path, "\(base) must be a PNG image (\(base).png); Wallet ignores a PDF one")
                    continue
                }
                checkImage(
                    ImageSize(info), base: base, scale: scale, style: style, shown: shown, hasStrip: files.hasStrip,
                    path: path, context: &context
                )
            }
        }
    }

    private func checkImage(
        _ info: ImageSize,
        base: String,
        scale: Int,
        style: PassStyle?,
        shown: Set<String>,
        hasStrip: Bool,
        path: String,
        context: inout ValidationContext
    ) {
        guard Self.imageNames.contains(base) else {
            context.warning(path, "not an image Wallet uses; expected one of \(Self.imageNames.joined(separator: ", ")) "
                + "with an optional @2x or @3x suffix (.png, or .pdf for all but personalizationLogo)")
            return
        }
        guard let style else { return }
        if !shown.contains(base) {
            context.warning(path, "\(style.rawValue) passes do not show a \(base) image; Wallet ignores it")
            return
        }
        if style == .eventTicket, hasStrip, base == "background" || base == "thumbnail" {
            context.warning(path, "event tickets with a strip image do not show \(base) images; Wallet ignores it")
            return
        }
        checkImageSize(info, base: base, scale: scale, style: style, path: path, context: &context)
    }

    /// Compares pixel size (a PDF's page size in points) with Apple's point sizes × scale. Mismatches are
    /// warnings: Wallet scales and crops.
    private func checkImageSize(
        _ info: ImageSize,
        base: String,
        scale: Int,
        style: PassStyle,
        path: String,
        context: inout ValidationContext
    ) {
        enum Rule {
            case exact([(Int, Int)])
            case maximum(Int, Int)
        }
        let rule: Rule
        switch base {
        case "icon": rule = .exact([(29, 29), (38, 38)])
        case "logo": rule = .maximum(160, 50)
        case "thumbnail": rule = .maximum(90, 90)
        case "footer": rule = .maximum(286, 15)
        case "background": rule = .exact([(180, 220)])
        case "artwork": rule = .exact([(358, 448)])
        case "primaryLogo": rule = .maximum(126, 30)
        case "secondaryLogo": rule = .maximum(135, 12)
        case "strip":
            switch style {
            case .eventTicket: rule = .exact([(375, 98)])
            case .coupon, .storeCard: rule = .exact([(375, 144)])
            default: rule = .exact([(375, 123)])
            }
        default: return
        }
        guard let width = info.width, let height = info.height else { return }
        // A PDF page is measured in points, possibly fractional: half a point either way is the same size.
        let tolerance = info.isPDF ? 0.5 : 0
        let size = { "\(info.describe(width))×\(info.describe(height)) \(info.isPDF ? "points (PDF page)" : "pixels")" }
        let suffix = { scale == 1 ? "" : " at @\(scale)x" }
        switch rule {
        case .exact(let sizes):
            let matches = sizes.contains {
                abs(Double($0.0 * scale) - width) <= tolerance && abs(Double($0.1 * scale) - height) <= tolerance
            }
            guard !matches else { return }
            let expected = sizes.map { "\($0.0 * scale)×\($0.1 * scale) (\($0.0)×\($0.1) points\(suffix()))" }
            context.warning(path, "is \(size()); expected \(expected.joined(separator: " or "))")
        case .maximum(let maxWidth, let maxHeight):
            guard width > Double(maxWidth * scale) + tolerance || height > Double(maxHeight * scale) + tolerance else {
                return
            }
            context.warning(
                path,
                "is \(size()); at most \(maxWidth * scale)×\(maxHeight * scale) (\(maxWidth)×\(maxHeight) points\(suffix())) is shown"
            )
        }
    }
}

/// The size of an image file: a PNG's pixels, or a PDF's page size in points when it could be read.
struct ImageSize {
    var width: Double?
    var height: Double?
    var isPDF: Bool

    init(_ info: PNGInfo) {
        width = Double(info.width)
        height = Double(info.height)
        isPDF = false
    }

    init(_ info: PDFInfo) {
        width = info.width
        height = info.height
        isPDF = true
    }

    /// `358` for a whole number, `357.8` otherwise.
    func describe(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(format: "%.1f", value)
    }
}
