import ArgumentParser
import Foundation
import GoogleWallet
import PassWebService
import PassModel

/// `tessera pass google`: a "Save to Google Wallet" link for a pass made from a template.
struct PassGoogleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "google",
        abstract: "Print a \"Save to Google Wallet\" link for a pass made from a template and a data document.",
        discussion: """
            The link (https://pay.google.com/gp/v/save/<JWT>) is the last line of standard output. The JWT carries \
            the Google class and object whole; when that would be longer than Google's 1,800 characters, the \
            command stops, unless --insert-classes is given: then the classes (and, if still too long, the objects) \
            are inserted through Google Wallet's REST API and the JWT refers to them by id.
            """
    )

    @Option(help: "Template folder (pass.json, images, xx.lproj, and an optional google.json).")
    var template: String

    @Option(help: "JSON data document, as for `tessera pass create`.")
    var data: String?

    @OptionGroup var google: GoogleOptions

    @Option(name: .customLong("origin"), help: "A web origin allowed to show the save button (repeatable), such as https://tickets.example.com.")
    var origins: [String] = []

    @Option(help: "The public https URL of `tessera serve` for these templates: images are referenced at {public-url}/google/images/<sha256>.png.")
    var publicURL: String?

    @Flag(help: "Insert or update the classes (then the objects, if needed) through the REST API when the link would be too long.")
    var insertClasses = false

    @Option(help: "Also write {\"saveURL\", \"payload\"} to this JSON file.")
    var output: String?

    func run() async throws {
        if let output { try Loading.checkOutputFile(output, example: "save-link.json") }
        for origin in origins where Self.webOrigin(origin) == nil {
            throw CommandFailure(message: "--origin \(origin): not a web origin such as https://tickets.example.com (a scheme, a host and a port, no path or query)", exitCode: 2)
        }
        let origins = origins.compactMap(Self.webOrigin)
        let issuerId = try google.issuerId()
        let account = try google.serviceAccount()
        let images = try publicURL.map { try GoogleOptions.imageURLs(publicURL: $0, flag: "--public-url") }
        let template = try Loading.template(at: self.template)
        let passData = try data.map { try Loading.passData(at: $0) }
        let pass: Pass
        do {
            pass = try template.pass(applying: passData)
        } catch let error as PassModelError {
            throw CommandFailure(message: "\(data ?? self.template): \(error.description)")
        }
        let mapped = try Self.map(pass, template: template, issuerId: issuerId, imageURL: images ?? { _, _ in nil })
        for warning in mapped.warnings { Terminal.warning("\(warning.path): \(warning.message)") }
        let link = try await makeLink(mapped, account: account)
        if let output {
            let document = JSONValue.object(["saveURL": .string(link.url), "payload": link.payload])
            try document.jsonData().write(to: URL(fileURLWithPath: output), options: .atomic)
        }
        if link.content != .classesAndObjects {
            print("the JWT refers to \(link.content == .objects ? "classes" : "classes and objects") inserted through the REST API")
        }
        print(link.url)
    }

    /// Maps a pass, printing every problem with its path when the mapping fails.
    static func map(_ pass: Pass, template: PassTemplate, issuerId: String,
                    imageURL: @escaping @Sendable (String, Data) -> String?) throws -> GoogleWalletPass {
        do {
            return try GooglePassMapper(issuerId: issuerId, imageURL: imageURL).map(pass, template: template)
        } catch where !error.issues.isEmpty {
            for issue in error.issues { Terminal.standardError(issue.description) }
            throw CommandFailure(message: "\(template.name): \(error.issues.count) problem(s) in the Google Wallet pass")
        } catch {
            throw CommandFailure(message: error.reason)
        }
    }

    private func makeLink(_ pass: GoogleWalletPass, account: GoogleServiceAccount) async throws -> GoogleSaveLink {
        let inline = try await GoogleSaveLink.sign([pass], content: .classesAndObjects, account: account, origins: origins)
        if inline.fits { return inline }
        guard insertClasses else {
            throw CommandFailure(message: "the save link would be \(inline.url.count) characters with the class and object inline; "
                + "Google takes \(GoogleSaveLink.maximumLength). Give --insert-classes to insert them through the REST API first")
        }
        let client = GoogleWalletClient(account: account, configuration: try google.clientConfiguration())
        do {
            let link = try await insertAndSign(pass, account: account, client: client)
            try? await client.shutdown()
            return link
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Inserts the class, then the object if the link is still too long, and signs the link that refers to them.
    private func insertAndSign(_ pass: GoogleWalletPass, account: GoogleServiceAccount, client: GoogleWalletClient)
        async throws -> GoogleSaveLink
    {
        do {
            try await client.upsertClass(of: pass)
            let objects = try await GoogleSaveLink.sign([pass], content: .objects, account: account, origins: origins)
            if objects.fits { return objects }
            try await client.upsertObject(of: pass)
            let ids = try await GoogleSaveLink.sign([pass], content: .objectIds, account: account, origins: origins)
            guard ids.fits else {
                throw CommandFailure(message: "the save link would be \(ids.url.count) characters even with ids only; Google takes \(GoogleSaveLink.maximumLength)")
            }
            return ids
        } catch let error as GoogleAPIError {
            throw CommandFailure(message: "Google Wallet API: \(error.reason)")
        }
    }

    /// `text` as the web origin Google matches a save button's page against (`https://host[:port]`, RFC 6454), or `nil`
    /// when it is not one: a path (other than `/`), a query, a fragment or credentials would never match, and the
    /// save button would fail on that site.
    static func webOrigin(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme),
              let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.query == nil,
              url.fragment == nil, url.path.isEmpty || url.path == "/", let parsed = url.url
        else { return nil }
        // As a browser writes its Origin: no default port, an IPv6 host in brackets.
        return ConsoleSessionService.origin(of: parsed)
    }

}
