import Foundation
import OrderModel
import PassBundle
import PassCrypto
import PassModel

/// CPU time per stage of building one signed pass, to see where time goes besides the RSA signature.
enum Breakdown {
    static func run(template: PassTemplate, credentials: PassCredentials, data: PassData, count: Int) throws {
        let validator = PassValidator()
        let prepared = PassValidator.PreparedFiles(files: template.files)
        let contents = try PassContents(files: template.files)
        let signer = try PassSigner(credentials: credentials)
        let cms = try CMSSigner(certificate: credentials.certificate, privateKey: credentials.privateKey, chain: [credentials.wwdr])
        let pass = try template.pass(applying: data)
        let passJSON = try template.passJSON(for: pass)
        let manifest = Manifest(files: ["pass.json": passJSON]).jsonData()

        func time(_ name: String, _ body: () throws -> Void) rethrows {
            let start = SignBenchmark.threadCPUTime()
            for _ in 0..<count { try body() }
            let perCall = (SignBenchmark.threadCPUTime() - start) / Double(count) * 1e6
            print("| \(name) | \(String(format: "%.1f", perCall)) µs |")
        }
        print("| stage (\(count) calls each, thread CPU time) | per call |")
        print("| --- | ---: |")
        try time("apply data (PassTemplate.pass(applying:))") { _ = try template.pass(applying: data) }
        time("validate (PassValidator.validate(pass:prepared:))") { _ = validator.validate(pass: pass, prepared: prepared) }
        try time("encode pass.json (PassTemplate.passJSON(for:), template parts cached)") { _ = try template.passJSON(for: pass) }
        try time("encode pass.json in full (Pass.jsonData(), for comparison)") { _ = try pass.jsonData() }
        time("manifest.json (PassContents.manifestJSON: SHA-1 of pass.json into the template's encoded manifest)") {
            _ = contents.manifestJSON(passJSON: passJSON)
        }
        let allFiles = template.files.merging(["pass.json": passJSON]) { $1 }
        time("manifest.json with every file hashed and encoded (Manifest(files:).jsonData(), for comparison)") {
            _ = Manifest(files: allFiles).jsonData()
        }
        try time("CMS detached signature (CMSSigner.signDetached)") { _ = try cms.signDetached(manifest) }
        let signature = try cms.signDetached(manifest)
        try time("ZIP: template entries + pass.json, manifest.json, signature (ZipWriter, zlib CRC-32)") {
            _ = try contents.archive(adding: [("pass.json", passJSON), ("manifest.json", manifest), ("signature", signature)])
        }
        let builder = try PassBuilder(template: template, signer: signer)
        try time("whole pass (PassBuilder.build)") { _ = try builder.build(data: data) }
        try time("CMS detached signature again") { _ = try cms.signDetached(manifest) }
        try time("manifest + signature + ZIP (PassSigner.signedBundle)") { _ = try signer.signedBundle(passJSON: passJSON, contents: contents) }

        // The same stages one after another, as PassBuilder.build runs them, each timed within the sequence: a stage
        // can cost more here than alone (caches, allocator) and the difference shows where.
        var totals = [Double](repeating: 0, count: 6)
        let names = ["apply data", "validate", "encode pass.json", "manifest.json", "CMS signature", "ZIP"]
        var clock = SignBenchmark.threadCPUTime()
        let sequenceStart = clock
        func lap(_ stage: Int) {
            let now = SignBenchmark.threadCPUTime()
            totals[stage] += now - clock
            clock = now
        }
        for _ in 0..<count {
            let pass = try template.pass(applying: data); lap(0)
            _ = validator.validate(pass: pass, prepared: prepared); lap(1)
            let passJSON = try template.passJSON(for: pass); lap(2)
            let manifest = contents.manifestJSON(passJSON: passJSON); lap(3)
            let signature = try cms.signDetached(manifest); lap(4)
            _ = try contents.archive(adding: [("pass.json", passJSON), ("manifest.json", manifest), ("signature", signature)]); lap(5)
        }
        let sequenceTotal = (SignBenchmark.threadCPUTime() - sequenceStart) / Double(count) * 1e6
        for (name, total) in zip(names, totals) {
            print("| in sequence: \(name) | \(String(format: "%.1f", total / Double(count) * 1e6)) µs |")
        }
        print("| in sequence: all six stages (including the timer calls) | \(String(format: "%.1f", sequenceTotal)) µs |")
    }

    /// CPU time per stage of signing one order, outside the order model (merge, decode, validate).
    static func run(orders builder: OrderBuilder, data: Data, count: Int) throws {
        let built = try builder.build(data: data)
        let files = builder.template.files
        func time(_ name: String, _ body: () throws -> Void) rethrows {
            let start = SignBenchmark.threadCPUTime()
            for _ in 0..<count { try body() }
            let perCall = (SignBenchmark.threadCPUTime() - start) / Double(count) * 1e6
            print("| \(name) | \(String(format: "%.1f", perCall)) µs |")
        }
        print("")
        print("| order stage (\(count) calls each, thread CPU time) | per call |")
        print("| --- | ---: |")
        try time("prepare the template's files (PassContents(files:format: .order): SHA-256, manifest, ZIP entries)") {
            _ = try PassContents(files: files, format: .order)
        }
        let contents = try PassContents(files: files, format: .order)
        time("manifest.json (PassContents.manifestJSON: SHA-256 of order.json)") { _ = contents.manifestJSON(passJSON: built.orderJSON) }
        try time("sign and zip (OrderSigner.signedBundle: identifier check, manifest, CMS, ZIP)") {
            _ = try builder.signer.signedBundle(orderJSON: built.orderJSON, files: files)
        }
        let members = try OrderTemplate.members(of: data)
        time("merge, decode and encode the data's members (OrderTemplate.order(applying:))") {
            _ = builder.template.order(applying: members)
        }
        if let order = builder.template.order(applying: members)?.order {
            time("read the template's images whole (OrderValidator.PreparedFiles, once per template)") {
                _ = OrderValidator.PreparedFiles(files: files)
            }
            let prepared = builder.template.preparedFiles
            time("validate (OrderValidator.validate(order:prepared:))") { _ = OrderValidator().validate(order: order, prepared: prepared) }
        }
        try time("order.json (OrderBuilder.document: the above, the identity check and the validator)") {
            _ = try builder.document(data: data)
        }
        try time("whole order (OrderBuilder.build)") { _ = try builder.build(data: data) }
    }
}
