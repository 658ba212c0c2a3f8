import ArgumentParser
import Foundation
import PassBundle
import PassModel
import PassPreview

/// `tessera pass preview`: a picture of a pass (front, back or both) as SVG or PNG.
struct PassPreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw a .pkpass or a template (with optional data) as Wallet shows it, as PNG or SVG.",
        discussion: """
        The output format follows the --output extension: .svg (vector, text kept as text) or .png (drawn by librsvg \
        with DejaVu Sans, --scale pixels per point). A pass that fails validation (or a .pkpass that would not open, \
        checked as pass verify checks it) is still drawn, under a red banner listing its errors; the errors are also \
        printed as warnings.
        """
    )

    @Argument(help: "A .pkpass file (or use --template).")
    var pkpass: String?

    @Option(help: "Template folder (pass.json, images, xx.lproj) instead of a .pkpass.")
    var template: String?

    @Option(help: "JSON data document applied to the template (with --template).")
    var data: String?

    @Option(help: "front, back or both (side by side).")
    var side: String = "front"

    @Option(help: "Language whose xx.lproj/pass.strings and images are used (default: en when present).")
    var lang: String?

    @OptionGroup var picture: PreviewOutputOptions

    func validate() throws {
        guard (pkpass == nil) != (template == nil) else {
            throw ValidationError("give either a .pkpass file or --template DIR")
        }
        if data != nil && template == nil { throw ValidationError("--data applies to --template only") }
        guard PassPreviewRenderer.Side(rawValue: side) != nil else {
            throw ValidationError("--side must be front, back or both, not \"\(side)\"")
        }
    }

    func run() throws {
        let renderer = try makeRenderer()
        warnIfFallingBack(renderer)
        for image in renderer.imagesNotDrawn {
            Terminal.warning("\(image): not drawn; the preview draws PNG images only (add a PNG of the same name to see it)")
        }
        for error in renderer.report.errors { Terminal.warning("\(error.path): \(error.message)") }
        let side = PassPreviewRenderer.Side(rawValue: self.side)!
        try picture.write(svg: { renderer.svg(side: side) }, png: { try renderer.png(side: side, scale: $0) })
        let isSVG = picture.isSVG
        let size = renderer.pixelSize(side: side, scale: isSVG ? 1 : picture.scale)
        let verdict = renderer.report.isValid ? "valid" : "INVALID (\(renderer.report.errors.count) errors)"
        print("\(picture.output): \(side.rawValue), \(size.width)x\(size.height) \(isSVG ? "pt SVG" : "px PNG"), pass \(verdict)")
    }

    func makeRenderer() throws -> PassPreviewRenderer {
        let configuration = PassPreviewRenderer.Configuration(timeZone: picture.resolvedTimeZone)
        if let template {
            let passTemplate = try Loading.template(at: template)
            let passData = try data.map { try Loading.passData(at: $0) }
            do {
                return try PassPreviewRenderer(template: passTemplate, data: passData, language: lang,
                                               configuration: configuration)
            } catch let error as PassModelError {
                throw CommandFailure(message: error.description)
            }
        }
        let path = pkpass ?? ""
        do {
            let archive = try PassArchive(contentsOf: path)
            // Checked as `pass verify` checks it (a changed file, the signature), so a pass that would not open is not
            // called valid.
            let verification = PassVerifier().verify(contentsOf: path)
            return try PassPreviewRenderer(bundleFiles: archive.files, language: lang, configuration: configuration,
                                           packageIssues: verification.errors)
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        } catch let error as PassPreviewError {
            throw CommandFailure(message: "\(path): \(error.description)")
        }
    }

    /// Says so when `--lang` names a language the pass has no `xx.lproj` folder for: the preview then shows the
    /// localization Wallet falls back to (`en`, else the first), or the pass's own text when it has none.
    func warnIfFallingBack(_ renderer: PassPreviewRenderer) {
        guard let language = lang, renderer.localization != language else { return }
        let available = renderer.localizations.isEmpty ? "none" : renderer.localizations.joined(separator: ", ")
        let shown = renderer.localization.map { "its \($0).lproj text, as Wallet would" }
            ?? "its untranslated text"
        Terminal.warning("--lang \(language): the pass has no \(language).lproj, so the preview shows \(shown) "
            + "(languages it has: \(available))")
    }
}
