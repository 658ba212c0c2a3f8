import Foundation
import OrderModel
import PassBundle
import PassCrypto
import PassModel
import Testing
import TesseraTestSupport

@Suite("Order bundles")
struct OrderBundleTests {
    let chain: TestChain
    let signer: OrderSigner
    let template: OrderTemplate

    init() async throws {
        chain = try TestChain()
        let order = try chain.orderTypeCertificate(orderTypeIdentifier: "order.com.example.shop", teamIdentifier: "TESSERA123")
        signer = try OrderSigner(credentials: PassCredentials(certificate: order.certificate, privateKey: order.key,
                                                              wwdr: chain.chain.wwdr))
        template = try OrderTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order"))
    }

    @Test func signedOrderVerifiesWithOpenSSLAndItsManifestHashesAreSHA256() async throws {
        let built = try OrderBuilder(template: template, signer: signer).build(data: nil)
        #expect(built.warnings.isEmpty, "\(built.warnings)")
        let folder = try TemporaryDirectory.make(prefix: "order")
        let bundle = folder.appendingPathComponent("shop.order")
        try built.bundle.write(to: bundle)
        // Unzipped by an independent tool, hashed by another.
        let unzipped = folder.appendingPathComponent("contents")
        let unzip = try await Subprocess.run("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
                                                    bundle.path, unzipped.path])
        #expect(unzip.status == 0, "\(unzip.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: unzipped.path).sorted()
        #expect(names == ["logo.png", "manifest.json", "order.json", "signature"])

        let verify = try await Subprocess.opensslVerifyDetached(
            signature: unzipped.appendingPathComponent("signature"), content: unzipped.appendingPathComponent("manifest.json"),
            caFile: chain.path("root.pem"))
        #expect(verify.status == 0, "openssl cms -verify failed: \(verify.stderr)")
        #expect(verify.stderr.contains("Verification successful"))

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: unzipped.appendingPathComponent("manifest.json")))
            as? [String: String]
        #expect(manifest?.keys.sorted() == ["logo.png", "order.json"])
        for name in ["logo.png", "order.json"] {
            let digest = try await Subprocess.run("openssl", ["dgst", "-sha256", "-r", unzipped.appendingPathComponent(name).path])
            #expect(manifest?[name] == String(digest.stdout.prefix(64)), "\(name)")
        }

        let report = OrderVerifier(root: chain.chain.root).verify(data: built.bundle)
        #expect(report.wouldOpen, "\(report.errors)")
        #expect(report.chainVerified)
        #expect(OrderSigner.mediaType == "application/vnd.apple.finance.order")
    }

    @Test func aChangedFileIsReportedWithItsSHA256() async throws {
        let built = try OrderBuilder(template: template, signer: signer).build(data: nil)
        var files = try PassArchive(data: built.bundle, format: .order).files
        files["logo.png"] = OrderFixturePNG.tiny
        let tampered = try PassSignerTestHelper.zip(files, first: "order.json")
        let report = OrderVerifier(root: chain.chain.root).verify(data: tampered)
        #expect(report.errors.contains { $0.path == "logo.png" && $0.message.contains("SHA-256") })
    }

    @Test func aPassTypeIDCertificateCannotSignOrders() async throws {
        let credentials = try PassCredentials(certificate: chain.chain.pass, privateKey: chain.chain.passKey, wwdr: chain.chain.wwdr)
        #expect {
            try OrderSigner(credentials: credentials)
        } throws: { error in
            let error = error as? PassBundleError
            return error?.code == .identityMismatch && error?.reason.contains("Pass Type ID certificate (pass.dev.tessera.demo)") == true
        }
    }

    @Test func theCertificateNamesTheOrderTypeAndDataMayNotNameAnother() async throws {
        let builder = OrderBuilder(template: template, signer: signer)
        let other = try builder.build(data: Data(#"{"orderIdentifier": "TS-2"}"#.utf8))
        #expect(try Order(jsonData: other.orderJSON).orderTypeIdentifier == "order.com.example.shop")
        #expect(other.orderIdentifier == "TS-2")
        #expect {
            try builder.build(data: Data(#"{"orderTypeIdentifier": "order.com.example.other"}"#.utf8), source: "d.json")
        } throws: { error in
            (error as? PassBundleError)?.code == .identityMismatch && "\(error)".contains("d.json")
                && "\(error)".contains("order.com.example.other")
        }
    }

    @Test func anInvalidOrderListsEveryProblem() async throws {
        let data = Data(#"{"createdAt": "yesterday", "payment": {"status": "settled", "total": {"amount": 1.234, "currency": "USD"}}}"#.utf8)
        #expect {
            try OrderBuilder(template: template, signer: signer).build(data: data)
        } throws: { error in
            guard let error = error as? PassBundleError, error.code == .invalidOrder else { return false }
            let paths = Set(error.issues.filter { $0.severity == .error }.map(\.path))
            return paths.isSuperset(of: ["createdAt", "payment.total.amount", "payment.status"])
        }
    }
}

/// A tiny valid PNG for tampering with a bundle.
enum OrderFixturePNG {
    static let tiny = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!
}
