import ArgumentParser
import Foundation
import Checkout
import PaymentRequest
import Validation

/// `tessera pay`: check Apple Pay payment requests, preview their payment sheet and decrypt payment tokens.
struct PayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Validate Apple Pay payment requests, preview the payment sheet and decrypt payment tokens.",
        subcommands: [PayValidateCommand.self, PaySheetCommand.self, PayDecryptCommand.self]
    )
}

/// `tessera pay validate FILE|-`: every problem, or the normalized request.
struct PayValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate an ApplePayPaymentRequest JSON file and print it normalized.",
        discussion: """
        Exit 0 prints the request as pretty JSON with sorted keys on standard output (warnings go to standard error).
        Exit 1 prints every problem as "error: <path>: <reason>" on standard error.
        """
    )

    @Argument(help: "The request JSON file, or - for standard input.")
    var file: String

    func run() throws {
        let request = try PayInput.request(from: file)
        let report = request.validate()
        PayInput.print(report)
        guard report.isValid else { throw ExitCode(1) }
        do {
            let json = try request.normalized().jsonData()
            FileHandle.standardOutput.write(json + Data("\n".utf8))
        } catch {
            throw CommandFailure(message: "\(file): cannot encode the request: \(error)")
        }
    }
}

/// `tessera pay sheet FILE|- [--format text|html]`: what the payment sheet will show.
struct PaySheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Render what the Apple Pay sheet shows for a request, as text or HTML.",
        discussion: """
        The sheet is rendered for any request that decodes; problems are printed to standard error as in \
        `tessera pay validate`, and any error makes the exit status 1.
        """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, html
    }

    @Argument(help: "The request JSON file, or - for standard input.")
    var file: String

    @Option(help: "text (default) or html (a self-contained page).")
    var format: Format = .text

    func run() throws {
        let request = try PayInput.request(from: file)
        let report = request.validate()
        let sheet = PaymentSheet(request: request)
        // HTML is the same sheet the checkout serves, static: no server behind it.
        let output = format == .html ? try PaymentSheetPreview.html(for: request) : sheet.text()
        FileHandle.standardOutput.write(Data(output.utf8))
        PayInput.print(report)
        if !report.isValid { throw ExitCode(1) }
    }
}

/// Reading a request from a file or standard input, and printing problems.
enum PayInput {
    static func request(from file: String) throws -> ApplePayPaymentRequest {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let bytes = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(message: "\(file): \(FileReading.problem(at: file))")
            }
            data = bytes
        }
        let name = file == "-" ? "<stdin>" : file
        let request: ApplePayPaymentRequest
        do {
            request = try ApplePayPaymentRequest(jsonData: data)
        } catch let error as PaymentRequestError {
            throw CommandFailure(message: "\(name): \(error.reason)")
        }
        for key in ApplePayPaymentRequest.unknownKeys(inJSON: data) {
            Terminal.warning("\(key): is not an ApplePayPaymentRequest key; it is dropped")
        }
        return request
    }

    static func print(_ report: PaymentRequestReport) {
        for issue in report.issues { Terminal.standardError(issue.description) }
    }
}
