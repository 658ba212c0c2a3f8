import Foundation
import Testing
import TesseraTestSupport

/// `tessera order create`, `verify` and `inspect` as a subprocess, with a development Order Type ID certificate from
/// `tessera certs dev --order-type-id`, the shipped `OrderTemplates/shop-order`, and broken inputs.
@Suite("Orders (CLI)")
struct OrderCLITests {
    let work: URL
    let certs: URL
    static let orderTypeIdentifier = "order.com.example.shop"

    init() async throws {
        work = try TemporaryDirectory.make(prefix: "orders")
        certs = work.appendingPathComponent("certs")
        let result = try await Subprocess.tessera(["certs", "dev", "--out", certs.path, "--order-type-id", Self.orderTypeIdentifier,
                                             "--team-id", "SHOP123456"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    var template: URL { Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates/shop-order") }

    func credentials(_ name: String = "order") -> [String] {
        ["--cert", certs.appendingPathComponent("\(name).pem").path, "--key", certs.appendingPathComponent("\(name).key").path,
         "--wwdr", certs.appendingPathComponent("wwdr.pem").path]
    }

    func tessera(_ arguments: [String]) async throws -> ProcessResult {
        try await offCooperativePool { try Subprocess.tessera(arguments) }
    }

    /// A copy of the shop template to break.
    func copyOfTemplate(_ name: String) throws -> URL {
        let copy = work.appendingPathComponent(name)
        try FileManager.default.copyItem(at: template, to: copy)
        return copy
    }

    @Test func createVerifyAndInspectAnOrder() async throws {
        let output = work.appendingPathComponent("shop.order").path
        let data = work.appendingPathComponent("data.json")
        try Data(#"{"orderIdentifier": "TS-2002", "orderNumber": "2002", "fulfillments": [{"fulfillmentType": "shipping", "fulfillmentIdentifier": "TS-2002-1", "status": "onTheWay", "carrier": "UPS", "trackingNumber": "1Z999AA10123456784", "trackingURL": "https://www.ups.com/track?tracknum=1Z999AA10123456784"}]}"#.utf8).write(to: data)
        let create = try await tessera(["order", "create", "--template", template.path, "--data", data.path, "--output", output]
            + credentials())
        #expect(create.status == 0, "\(create.stderr)")
        #expect(create.stdout.contains("signed order TS-2002"))

        let verify = try await tessera(["order", "verify", output, "--root", certs.appendingPathComponent("root.pem").path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("would open"))

        let inspect = try await tessera(["order", "inspect", output, "--json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
        let order = object?["order"] as? [String: Any]
        #expect(order?["orderTypeIdentifier"] as? String == Self.orderTypeIdentifier)
        #expect(order?["orderIdentifier"] as? String == "TS-2002")
        let fulfillment = (order?["fulfillments"] as? [[String: Any]])?.first
        #expect(fulfillment?["trackingNumber"] as? String == "1Z999AA10123456784")
        let files = (object?["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(files == ["logo.png", "manifest.json", "order.json", "signature"])
        #expect((object?["signer"] as? String)?.contains("Order Type ID: \(Self.orderTypeIdentifier)") == true)

        let text = try await tessera(["order", "inspect", output])
        #expect(text.stdout.contains("Tessera Shop  order 2002  open"))
        #expect(text.stdout.contains("Shipping TS-2002-1: onTheWay (UPS 1Z999AA10123456784)"))
    }

    @Test func applesFormsAreSignedAsApplesTypesAndWhatItsSchemaForbidsIsNot() async throws {
        let output = work.appendingPathComponent("apple.order")
        let data = work.appendingPathComponent("apple.json")
        let pickup = #"{"fulfillmentType": "pickup", "fulfillmentIdentifier": "P-1", "status": "readyForPickup"}"#
        try Data(#"{"payment": {"total": {"amount": 31, "currency": "USD"}, "paymentMethods": ["Visa 5678"]}, "fulfillments": [\#(pickup)]}"#.utf8)
            .write(to: data)
        let refused = try await tessera(["order", "create", "--template", template.path, "--data", data.path,
                                         "--output", output.path] + credentials())
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("error: fulfillments[0].displayName: required key is missing"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))

        try Data(#"{"payment": {"total": {"amount": 31, "currency": "USD"}, "paymentMethods": ["Visa 5678"]}, "fulfillments": [{"fulfillmentType": "pickup", "fulfillmentIdentifier": "P-1", "status": "readyForPickup", "displayName": "Market Street"}]}"#.utf8)
            .write(to: data)
        let create = try await tessera(["order", "create", "--template", template.path, "--data", data.path,
                                        "--output", output.path] + credentials())
        #expect(create.status == 0, "\(create.stderr)")
        let inspect = try await tessera(["order", "inspect", output.path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
        let payment = (object?["order"] as? [String: Any])?["payment"] as? [String: Any]
        #expect((payment?["total"] as? [String: Any])?["amount"] as? String == "31.00", "\(String(describing: payment))")
        #expect(payment?["paymentMethods"] as? [String] == ["Visa 5678"])
        let prices = ((object?["order"] as? [String: Any])?["lineItems"] as? [[String: Any]])?
            .compactMap { ($0["price"] as? [String: Any])?["amount"] as? String }
        #expect(prices == ["12.50", "18.00"])
    }

    @Test func malformedOrderJSONNamesTheFileAndWritesNothing() async throws {
        let broken = try copyOfTemplate("malformed")
        try Data(#"{"schemaVersion": 1, "merchant": {"#.utf8).write(to: broken.appendingPathComponent("order.json"))
        let output = work.appendingPathComponent("malformed.order")
        let create = try await tessera(["order", "create", "--template", broken.path, "--output", output.path] + credentials())
        #expect(create.status == 1)
        #expect(create.stderr.contains("malformed/order.json: invalid JSON"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func everyProblemIsReportedWithItsPathAndNothingIsWritten() async throws {
        let broken = try copyOfTemplate("no-logo")
        try FileManager.default.removeItem(at: broken.appendingPathComponent("logo.png"))
        let data = work.appendingPathComponent("bad.json")
        try Data(#"{"updatedAt": "2026-05-01T00:00:00Z", "payment": {"total": {"amount": 47.999, "currency": "USD"}}}"#.utf8)
            .write(to: data)
        let output = work.appendingPathComponent("no-logo.order")
        let create = try await tessera(["order", "create", "--template", broken.path, "--data", data.path,
                                        "--output", output.path] + credentials())
        #expect(create.status == 1)
        #expect(create.stderr.contains("error: merchant.logo: \"logo.png\" is not in the bundle"), "\(create.stderr)")
        #expect(create.stderr.contains("error: updatedAt: 2026-05-01T00:00:00Z is before createdAt"))
        #expect(create.stderr.contains("error: payment.total.amount: 47.999 has 3 decimal places; USD has 2"))
        #expect(create.stderr.contains("not written: 3 error(s)"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aPassTypeIDCertificateIsRefusedByName() async throws {
        let output = work.appendingPathComponent("wrong.order")
        let create = try await tessera(["order", "create", "--template", template.path, "--output", output.path]
            + credentials("pass"))
        #expect(create.status == 1)
        #expect(create.stderr.contains("Pass Type ID certificate (pass.dev.tessera.demo)"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let data = work.appendingPathComponent("other.json")
        try Data(#"{"orderTypeIdentifier": "order.com.example.other"}"#.utf8).write(to: data)
        let other = try await tessera(["order", "create", "--template", template.path, "--data", data.path,
                                       "--output", output.path] + credentials())
        #expect(other.status == 1)
        #expect(other.stderr.contains("other.json \"orderTypeIdentifier\": \"order.com.example.other\""), "\(other.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// Copies an order with one byte of its `order.json` changed after signing ("Tessera Shop" becomes "Tessera
    /// Shoq"), written by Python's zipfile, a writer independent of Tessera's.
    static func changeOrderJSON(of order: String, into changed: String) async throws {
        let script = """
        import sys, zipfile
        src, dst = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w") as out:
            for item in z.infolist():
                data = z.read(item.filename)
                if item.filename == "order.json":
                    data = data.replace(b"Tessera Shop", b"Tessera Shoq")
                out.writestr(item, data)
        """
        let python = try await offCooperativePool { try Subprocess.run("python3", ["-c", script, order, changed]) }
        #expect(python.status == 0, "\(python.stderr)")
    }

    @Test func verifyFindsAChangedFileAndUsageErrorsExit2() async throws {
        let output = work.appendingPathComponent("tampered.order")
        let create = try await tessera(["order", "create", "--template", template.path, "--output", output.path] + credentials())
        #expect(create.status == 0, "\(create.stderr)")
        let tampered = work.appendingPathComponent("changed.order").path
        try await Self.changeOrderJSON(of: output.path, into: tampered)
        let verify = try await tessera(["order", "verify", tampered, "--json"])
        #expect(verify.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        let errors = report?["errors"] as? [[String: Any]] ?? []
        #expect(errors.contains { $0["path"] as? String == "order.json" && ($0["message"] as? String)?.contains("SHA-256") == true },
                "\(errors)")

        let usage = try await tessera(["order", "create", "--template", template.path, "--output", output.path])
        #expect(usage.status == 2)
    }
}
