import ArgumentParser
import Foundation
import PassBundle
import PassModel
import PassPreview

/// `tessera order preview`: a picture of an order as Wallet lists it, as SVG or PNG.
struct OrderPreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw a .order as Wallet lists it (merchant, items, total, fulfillment status), as PNG or SVG.",
        discussion: """
        The output format follows the --output extension: .svg (vector, text kept as text) or .png (drawn by librsvg \
        with DejaVu Sans, --scale pixels per point). The order is checked as `tessera order verify` checks it; an order \
        that would not open (a changed file, no signature, an invalid order.json) is still drawn, under a red banner \
        listing its errors, and the errors are printed as warnings.
        """
    )

    @Argument(help: "The .order file.")
    var file: String

    @OptionGroup var picture: PreviewOutputOptions

    func run() throws {
        let renderer: OrderPreviewRenderer
        do {
            let archive = try PassArchive(contentsOf: file, format: .order)
            let report = OrderVerifier().verify(contentsOf: file)
            for issue in report.errors { Terminal.warning("\(issue.path): \(issue.message)") }
            renderer = try OrderPreviewRenderer(bundleFiles: archive.files, issues: report.issues,
                                                timeZone: picture.resolvedTimeZone)
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        } catch let error as PassPreviewError {
            throw CommandFailure(message: "\(file): \(error.description)")
        }
        try picture.write(svg: { renderer.svg() }, png: { try renderer.png(scale: $0) })
        let isSVG = picture.isSVG
        let size = renderer.pixelSize(scale: isSVG ? 1 : picture.scale)
        let errors = renderer.issues.filter { $0.severity == .error }.count
        let verdict = errors == 0 ? "would open" : "would NOT open (\(errors) errors)"
        print("\(picture.output): \(size.width)x\(size.height) \(isSVG ? "pt SVG" : "px PNG"), order \(verdict)")
    }
}
