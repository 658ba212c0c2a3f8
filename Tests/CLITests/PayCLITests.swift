import Foundation
import Testing
import TesseraTestSupport

/// `tessera pay validate` and `tessera pay sheet` run as subprocesses.
@Suite("tessera pay")
struct PayCLITests {
    let work: URL

    init() async throws {
        work = try TemporaryDirectory.make(prefix: "pay")
    }

    static let valid = """
    {"countryCode": "US", "currencyCode": "USD", "merchantCapabilities": ["supports3DS"],
     "supportedNetworks": ["Visa", "masterCard"],
     "lineItems": [{"label": "Subtotal", "amount": "10.00"}, {"label": "Tax", "amount": "0.80"}],
     "shippingMethods": [{"label": "Standard", "detail": "Arrives in 3-5 business days", "amount": "0.00",
                          "identifier": "std"}],
     "requiredShippingContactFields": ["postalAddress", "name"],
     "total": {"label": "Corner Bakery (via Marketplace)", "amount": "10.80"}}
    """

    func write(_ name: String, _ text: String) throws -> String {
        let url = work.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Runs the CLI with `input` on standard input (Subprocess.tessera gives the child no input).
    /// The wait is on a thread of its own, as for every subprocess a test runs.
    func runWithStandardInput(_ arguments: [String], input: String) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await offCooperativePool { try Self.runBlocking(arguments, input: input) }
    }

    private static func runBlocking(_ arguments: [String], input: String) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Subprocess.tesseraPath)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func validatePrintsTheNormalizedRequest() async throws {
        let result = try await Subprocess.tessera(["pay", "validate", try write("ok.json", Self.valid)])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["supportedNetworks"] as? [String] == ["visa", "masterCard"])
        #expect((object["total"] as? [String: Any])?["amount"] as? String == "10.80")
        // Sorted keys, pretty-printed.
        let keys = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == keys.sorted() && keys.first == "countryCode")
    }

    @Test func validateListsEveryProblemAndExits1() async throws {
        let broken = Self.valid.replacingOccurrences(of: "\"US\"", with: "\"USA\"")
            .replacingOccurrences(of: "\"0.80\"", with: "\"0.8.0\"")
            .replacingOccurrences(of: "\"supports3DS\"", with: "\"supportsCredit\"")
        let result = try await Subprocess.tessera(["pay", "validate", try write("bad.json", broken)])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "error: countryCode: \"USA\" is not an ISO 3166-1 alpha-2 country code",
            "error: merchantCapabilities: must include \"supports3DS\"; Apple requires it in every request",
            "warning: total.label: \"Pay <label>\" is 35 characters; the sheet shows about 30 on one line",
            "error: lineItems[1].amount: \"0.8.0\" is not a valid amount: use digits with an optional minus sign "
                + "and decimal point, such as \"10.00\"",
        ])
    }

    @Test("a file that is not JSON is named with the line and column where it stops being JSON")
    func notJSONNamesLineAndColumn() async throws {
        let file = try write("cut.json", "{\n  \"countryCode\": \"US\",\n  \"total\": \n}")
        for command in ["validate", "sheet"] {
            let result = try await Subprocess.tessera(["pay", command, file])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasPrefix("error: \(file): not valid JSON: line 4, column 1: "), "\(command): \(result.stderr)")
        }
    }

    @Test func validateReadsStandardInput() async throws {
        let result = try await runWithStandardInput(["pay", "validate", "-"], input: Self.valid)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"countryCode\" : \"US\""))
        let bad = try await runWithStandardInput(["pay", "validate", "-"], input: "{\"total\": {\"amount\": 5}}")
        #expect(bad.status == 1)
        #expect(bad.stderr == "error: <stdin>: total.amount: expected a string (amounts are strings such as \"10.00\")\n")
    }

    @Test func sheetAsTextAndHTML() async throws {
        let file = try write("sheet.json", Self.valid)
        let text = try await Subprocess.tessera(["pay", "sheet", file])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Pay Corner Bakery (via Marketplace)"))
        #expect(text.stdout.contains("(•) Standard — USD 0.00"))
        #expect(text.stdout.contains("Shipping: Postal Address, Name"))
        #expect(text.stderr.contains("warning: total.label: \"Pay <label>\" is 35 characters"))
        let html = try await Subprocess.tessera(["pay", "sheet", file, "--format", "html"])
        #expect(html.status == 0)
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>"))
        // The checkout's own sheet, static: its rows and summary, the request embedded, no requests allowed.
        #expect(html.stdout.contains("<main id=\"sheet\" class=\"sheet\""))
        #expect(html.stdout.contains("id=\"row-shipping-method\""))
        #expect(html.stdout.contains("\"total\":{\"amount\":\"10.80\",\"label\":\"Corner Bakery (via Marketplace)\""))
        #expect(html.stdout.contains("connect-src 'none'"))
        let piped = try await runWithStandardInput(["pay", "sheet", "-", "--format", "text"], input: Self.valid)
        #expect(piped.stdout == text.stdout)
    }

    @Test func usageErrorsExit2() async throws {
        let missing = try await Subprocess.tessera(["pay", "validate"])
        #expect(missing.status == 2)
        let format = try await Subprocess.tessera(["pay", "sheet", "x.json", "--format", "pdf"])
        #expect(format.status == 2)
        let absent = try await Subprocess.tessera(["pay", "validate", work.appendingPathComponent("none.json").path])
        #expect(absent.status == 1)
        #expect(absent.stderr.contains("file not found or unreadable"))
    }
}
