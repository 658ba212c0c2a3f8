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

    @Option(help: "Time zone fulfillment dates are shown in (IANA name; default: this machine's).")
    var timeZone: String?

    @Option(help: "PNG pixels per point, 0.25-8.")
    var scale: Double = 2

    @Option(help: "Output file: FILE.png or FILE.svg (written whole or not at all).")
    var output: String

    func validate() throws {
        guard ["png", "svg"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            throw ValidationError("--output must end in .png or .svg, not \"\(output)\"")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--time-zone: unknown time zone \"\(timeZone)\"")
        }
        guard scale >= 0.25 && scale <= 8 else { throw ValidationError("--scale must be between 0.25 and 8") }
    }

    func run() throws {
        let renderer: OrderPreviewRenderer
        do {
            let archive = try PassArchive(contentsOf: file, format: .order)
            let report = OrderVerifier().verify(contentsOf: file)
            for issue in report.errors { Terminal.warning("\(issue.path): \(issue.message)") }
            renderer = try OrderPreviewRenderer(bundleFiles: archive.files, issues: report.issues,
                                                timeZone: timeZone.flatMap(TimeZone.init(identifier:)) ?? .current)
        } catch let error as PassBundleError {
            throw CommandFailure(message: error.description)
        } catch let error as PassPreviewError {
            throw CommandFailure(message: "\(file): \(error.description)")
        }
        let url = URL(fileURLWithPath: output)
        let isSVG = url.pathExtension.lowercased() == "svg"
        let bytes: Data
        do {
            bytes = isSVG ? Data(renderer.svg().utf8) : try renderer.png(scale: scale)
        } catch let error as PassPreviewError {
            throw CommandFailure(message: error.description)
        }
        do {
            try bytes.write(to: url, options: .atomic)  // a temporary file beside the output, then a rename
        } catch {
            throw CommandFailure(message: "\(output): cannot write: \(error.localizedDescription)")
        }
        let size = renderer.pixelSize(scale: isSVG ? 1 : scale)
        let errors = renderer.issues.filter { $0.severity == .error }.count
        let verdict = errors == 0 ? "would open" : "would NOT open (\(errors) errors)"
        print("\(output): \(size.width)x\(size.height) \(isSVG ? "pt SVG" : "px PNG"), order \(verdict)")
    }
}
