import ArgumentParser
import Foundation
import PassModel
import PassPreview

/// Pass previews per second for one template (the event ticket by default): SVG and PNG separately, each from the
/// template and a data document (apply, validate, encode images, render the barcode, draw).
struct PreviewBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Pass previews per second (SVG, PNG at 1x and 2x) for a template, on one thread."
    )

    @Option(help: "Template folder.")
    var template = "PassTemplates/event-ticket"

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 3

    func run() throws {
        let passTemplate = try PassTemplate(directory: URL(fileURLWithPath: template))
        let configuration = PassPreviewRenderer.Configuration(timeZone: TimeZone(identifier: "UTC")!)
        func renderer(_ index: Int) throws -> PassPreviewRenderer {
            let data = PassData(overrides: ["serialNumber": .string("BENCH-\(index)"),
                                            "barcodeMessage": .string("TICKET-\(index)-QR")])
            return try PassPreviewRenderer(template: passTemplate, data: data, language: "en", configuration: configuration)
        }
        _ = try renderer(0).png()  // warm up: fontconfig's cache, ICU's locale data

        let name = URL(fileURLWithPath: template).lastPathComponent
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString); 1 thread")
        print("")
        print("| \(name) preview | per second | ms each | output bytes |")
        print("| --- | ---: | ---: | ---: |")
        let prepared = try rate { index in _ = try renderer(index) }
        row("prepare only (apply data, validate, images, barcode)", prepared, bytes: nil)
        let svgBytes = try renderer(1).svg().utf8.count
        row("SVG (prepare + draw)", try rate { index in _ = try renderer(index).svg() }, bytes: svgBytes)
        for scale in [1.0, 2.0] {
            let bytes = try renderer(1).png(scale: scale).count
            row("PNG \(Int(scale))x (prepare + draw + librsvg)", try rate { index in _ = try renderer(index).png(scale: scale) },
                bytes: bytes)
        }
    }

    func row(_ label: String, _ perSecond: Double, bytes: Int?) {
        print("| \(label) | \(String(format: "%.0f", perSecond)) | \(String(format: "%.2f", 1000 / perSecond)) | "
            + "\(bytes.map(String.init) ?? "—") |")
    }

    /// Calls of `body` per second over `seconds`.
    func rate(_ body: (Int) throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var count = 0
        while DispatchTime.now().uptimeNanoseconds < deadline {
            try body(count)
            count += 1
        }
        return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
